import { NotFound } from '../ui/not-found.tsx';

export default function NotFoundPage() {
  return <NotFound mih="80vh" />;
}
