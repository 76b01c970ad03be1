import { useState } from 'react';
import { Paper, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { LIMITS, YEARS, type Year } from '@studybuddy/shared/limits';
import { MSG } from '@studybuddy/shared/messages';
import { PROFILE_LIMITS, profileSaveProblem } from '@studybuddy/shared/profile';
import { isProfileComplete, type OwnProfile } from '@studybuddy/shared/session';
import { ApiRequestError } from '../../lib/api.ts';
import { FormActions } from '../../ui/form-actions.tsx';
import { toast } from '../../ui/toast.ts';
import { LmsSection } from '../lms/index.ts';
import { AdditionalImages } from './additional-images.tsx';
import { CoursesEditor } from './courses-editor.tsx';
import { PictureField } from './picture-field.tsx';
import { useSaveProfile } from './profile-api.ts';

type Form = Pick<
  OwnProfile,
  'name' | 'major' | 'bio' | 'courses' | 'profilePicture' | 'hasCustomProfilePicture' | 'additionalImages'
> & { year: Year | '' };

interface Props {
  profile: OwnProfile;
  onDone: () => void;
}

/** Edit mode: Cancel (refused while the saved profile is incomplete) and Save with the §5 rules. */
export function ProfileForm({ profile, onDone }: Props) {
  const [form, setForm] = useState<Form>({
    name: profile.name,
    major: profile.major,
    year: profile.year,
    bio: profile.bio,
    courses: profile.courses,
    profilePicture: profile.profilePicture,
    hasCustomProfilePicture: profile.hasCustomProfilePicture,
    additionalImages: profile.additionalImages,
  });
  const [error, setError] = useState<string | null>(null);
  const save = useSaveProfile();
  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));

  const cancel = () => {
    if (!isProfileComplete(profile)) return setError(MSG.profile.completeFirst);
    onDone();
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const problem = profileSaveProblem(form);
    if (problem) return setError(problem.message);
    setError(null);
    try {
      await save.mutateAsync({
        name: form.name,
        major: form.major,
        year: form.year,
        bio: form.bio,
        courses: form.courses,
        profilePicture: form.profilePicture,
        additionalImages: form.additionalImages,
      });
      toast.success(MSG.profile.saved);
      onDone();
    } catch (err) {
      setError(err instanceof ApiRequestError && err.status === 400 ? err.message : MSG.profile.saveFailed);
    }
  };

  return (
    <Paper withBorder p="lg" component="form" onSubmit={(e) => void submit(e)} noValidate>
      <Stack gap="lg">
        <PictureField
          picture={form.profilePicture}
          custom={form.hasCustomProfilePicture}
          onUploaded={(url) => setForm((f) => ({ ...f, profilePicture: url, hasCustomProfilePicture: true }))}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={MSG.profile.fields.name}
            required
            autoComplete="name"
            maxLength={PROFILE_LIMITS.nameMax}
            value={form.name}
            onChange={(e) => set('name', e.currentTarget.value)}
          />
          <TextInput
            label={MSG.profile.fields.major}
            required
            maxLength={PROFILE_LIMITS.majorMax}
            value={form.major}
            onChange={(e) => set('major', e.currentTarget.value)}
          />
          <Select
            label={MSG.profile.fields.year}
            required
            placeholder={MSG.profile.yearPlaceholder}
            data={[...YEARS]}
            value={form.year || null}
            onChange={(v) => set('year', (v ?? '') as Year | '')}
            allowDeselect={false}
          />
          <TextInput label={MSG.profile.fields.college} value={profile.college} readOnly variant="filled" />
        </SimpleGrid>
        <Textarea
          label={MSG.profile.fields.bio}
          autosize
          minRows={3}
          maxLength={PROFILE_LIMITS.bioMax}
          value={form.bio}
          onChange={(e) => set('bio', e.currentTarget.value)}
        />
        <CoursesEditor courses={form.courses} onChange={(courses) => set('courses', courses)} />
        <AdditionalImages
          images={form.additionalImages}
          onAdd={(urls) =>
            setForm((f) => ({
              ...f,
              additionalImages: [...f.additionalImages, ...urls].slice(0, LIMITS.additionalImages),
            }))
          }
          onRemove={(url) => setForm((f) => ({ ...f, additionalImages: f.additionalImages.filter((u) => u !== url) }))}
        />
        <LmsSection onImported={(courses) => set('courses', courses)} />
        <FormActions
          error={error}
          cancelLabel={MSG.profile.cancel}
          onCancel={cancel}
          confirmLabel={MSG.profile.save}
          pending={save.isPending}
        />
      </Stack>
    </Paper>
  );
}
