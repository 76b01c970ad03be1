import { List, Text } from '@mantine/core';
import { LegalPage, Section } from './legal-page.tsx';

export default function PrivacyPage() {
  return (
    <LegalPage title="Privacy Policy" updated="2025">
      <Text>
        This page says plainly what StudyBuddy stores about you, why, and how to have it deleted. StudyBuddy runs on its
        operator&apos;s own server; your data is not sold and not shared with advertisers.
      </Text>
      <Section title="What we store">
        <List spacing={4}>
          <List.Item>
            <strong>Your account</strong>: your university email address and your password, stored only as a salted,
            memory-hard (scrypt) hash that nobody can read back. If you use social sign-in, the provider&apos;s
            identifier for you.
          </List.Item>
          <List.Item>
            <strong>Your profile</strong>: name, major, year, college (taken from your email address), bio, courses,
            profile picture and up to four more images. Students of your college can see it in BuddyFinder and search.
          </List.Item>
          <List.Item>
            <strong>Friends and messages</strong>: your friend requests and friendships, and the messages, images and
            voice recordings you send in chats and groups. Only the people in a conversation can read it.
          </List.Item>
          <List.Item>
            <strong>Files and documents</strong>: documents you upload or open from Canvas, the text read from them,
            their summaries, and the questions you ask about them. Only you can see your documents.
          </List.Item>
          <List.Item>
            <strong>Canvas</strong>: if you connect Canvas, your access token, <strong>encrypted</strong> on the server,
            and the courses and coursework it imports.
          </List.Item>
          <List.Item>
            <strong>Sessions</strong>: one cookie that keeps you signed in. We use no tracking or advertising cookies.
          </List.Item>
          <List.Item>
            <strong>Feedback</strong> you choose to send, with your rating.
          </List.Item>
        </List>
      </Section>
      <Section title="Email">
        <Text>We email you only to verify your address and to reset your password when you ask for it.</Text>
      </Section>
      <Section title="Deleting your account">
        <Text>
          You can delete your account yourself: open your profile, choose <strong>Delete account</strong> in the Danger
          zone and confirm with your password (an account made with social sign-in confirms by having signed in within
          the last few minutes). This removes your account and sessions, your profile and pictures, your friendships and
          friend requests, your uploaded files and documents, and your Canvas token with the coursework cached from it.
          Your one-to-one chats, and the pictures and voice messages you sent, go too; your Canvas token is also
          withdrawn with Canvas. It cannot be undone. Text messages you sent in groups stay there, shown as from
          &quot;Deleted student&quot;; a group nobody is left in is deleted. Feedback you sent is kept without your
          name. Before you go, <strong>Download my data</strong> on your profile gives you a copy of what you put in.
        </Text>
        <Text>
          To only stop Canvas access, disconnect Canvas on your profile page: that deletes the token and the coursework
          cached from it.
        </Text>
      </Section>
    </LegalPage>
  );
}
