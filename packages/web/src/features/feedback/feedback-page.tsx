import { useState } from 'react';
import { Alert, Button, Paper, Select, Stack, Text, Textarea } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { CheckCircle2 } from 'lucide-react';
import { feedbackInputSchema } from '@studybuddy/shared/feedback';
import { MSG } from '@studybuddy/shared/messages';
import { api } from '../../lib/api.ts';
import { PageHeader } from '../../ui/page-header.tsx';

const RATINGS = [
  { value: '5', label: '5 - Excellent' },
  { value: '4', label: '4 - Good' },
  { value: '3', label: '3 - Okay' },
  { value: '2', label: '2 - Poor' },
  { value: '1', label: '1 - Very poor' },
];

export default function FeedbackPage() {
  const [text, setText] = useState('');
  const [rating, setRating] = useState<string | null>(null);
  const [errors, setErrors] = useState<{ feedback?: string; rating?: string }>({});
  const submit = useMutation({
    mutationFn: (body: { feedback: string; rating: number }) => api('/api/feedback', { body }),
  });

  const onSubmit = (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = feedbackInputSchema.safeParse({ feedback: text, rating: rating ?? undefined });
    if (!parsed.success) {
      const next: typeof errors = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] as 'feedback' | 'rating';
        next[key] ??= key === 'feedback' ? MSG.feedback.textRequired : MSG.feedback.ratingRequired;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    submit.mutate(parsed.data);
  };

  return (
    <Stack maw={640}>
      <PageHeader title={MSG.feedback.title} />
      {submit.isSuccess ? (
        <Alert color="green" icon={<CheckCircle2 size={18} />} role="status">
          {MSG.feedback.thanks}
        </Alert>
      ) : (
        <Paper withBorder p="lg" component="form" onSubmit={onSubmit} noValidate>
          <Stack>
            <Text c="dimmed">Tell us what works, what does not, and what you would like to see next.</Text>
            <Textarea
              label="Your feedback"
              required
              autosize
              minRows={5}
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              error={errors.feedback}
            />
            <Select
              label="Rating"
              required
              placeholder="Choose a rating"
              data={RATINGS}
              value={rating}
              onChange={setRating}
              error={errors.rating}
            />
            {submit.isError && (
              <Alert color="red" role="alert">
                {MSG.feedback.failed}
              </Alert>
            )}
            <Button type="submit" loading={submit.isPending} style={{ alignSelf: 'flex-start' }}>
              {MSG.feedback.submit}
            </Button>
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
