import { Anchor, List, Text } from '@mantine/core';
import { Link } from 'react-router';
import { ROUTES } from '@studybuddy/shared/routes';
import { LegalPage, Section } from './legal-page.tsx';
import { universityNames, useUniversities } from './universities-api.ts';

export default function TermsPage() {
  const universities = useUniversities();
  return (
    <LegalPage title="Terms of Use" updated="2025">
      <Text>
        StudyBuddy helps university students find study partners at their own college, chat, and organise their
        coursework and course documents. By creating an account you agree to these terms.
      </Text>
      <Section title="Who can use StudyBuddy">
        <Text>
          Only students with an email address of a supported university
          {universities?.length ? ` (${universityNames(universities)})` : ''} can sign up, and each account belongs to
          one person. Keep your password to yourself.
        </Text>
      </Section>
      <Section title="How to behave">
        <List spacing={4}>
          <List.Item>Be respectful to other students; no harassment, hate or spam.</List.Item>
          <List.Item>Only upload files and images you have the right to share.</List.Item>
          <List.Item>
            Follow your university&apos;s academic integrity rules: StudyBuddy is for studying together, not for sharing
            graded work.
          </List.Item>
        </List>
      </Section>
      <Section title="Canvas and calendars">
        <Text>
          Connecting Canvas or a calendar is optional. StudyBuddy only reads what your Canvas access token allows and
          only adds the due dates you choose to your calendar. You can disconnect at any time from your profile.
        </Text>
      </Section>
      <Section title="Summaries and answers">
        <Text>
          Document summaries and answers are generated automatically and can be wrong. Check them against the document
          before you rely on them.
        </Text>
      </Section>
      <Section title="Ending your account">
        <Text>
          You can stop using StudyBuddy at any time and delete your account from your profile page, as described in the{' '}
          <Anchor component={Link} to={ROUTES.privacy} underline="always">
            Privacy Policy
          </Anchor>
          . Accounts that break these terms may be disabled.
        </Text>
      </Section>
      <Section title="No warranty">
        <Text>StudyBuddy is provided as it is, without any guarantee that it is always available or error-free.</Text>
      </Section>
    </LegalPage>
  );
}
