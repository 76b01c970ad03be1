import { Bell, BookOpen, ClipboardList, MessageCircle, MessageSquareHeart, Search, Users } from 'lucide-react';
import { ROUTES } from '@studybuddy/shared/routes';

/** The sidebar links of spec §2, in order, with their exact labels. */
export const NAV_LINKS = [
  { label: 'Notifications', to: ROUTES.notifications, icon: Bell },
  { label: 'BuddyFinder', to: ROUTES.matchmaking, icon: Search },
  { label: 'Friends', to: ROUTES.friends, icon: MessageCircle },
  { label: 'Groups', to: ROUTES.groups, icon: Users },
  { label: 'Assignments', to: ROUTES.assignments, icon: ClipboardList },
  { label: 'Courses', to: ROUTES.courses, icon: BookOpen },
  { label: 'Feedback', to: ROUTES.feedback, icon: MessageSquareHeart },
] as const;
