import {
  Bell,
  CalendarClock,
  BookOpen,
  ClipboardList,
  Layers,
  MessageCircle,
  MessageSquareHeart,
  Search,
  Users,
  type LucideIcon,
} from 'lucide-react';
import { ROUTES } from '@studybuddy/shared/routes';

interface NavLinkDef {
  label: string;
  to: string;
  icon: LucideIcon;
  /** Other paths that show this link's screen. */
  also?: readonly string[];
}

/** The sidebar links of requirements §2, in order, with their exact labels. */
export const NAV_LINKS: readonly NavLinkDef[] = [
  { label: 'Notifications', to: ROUTES.notifications, icon: Bell },
  { label: 'BuddyFinder', to: ROUTES.matchmaking, icon: Search },
  // The root path is the friends screen (requirements §2), so Friends is the active link there too.
  { label: 'Friends', to: ROUTES.friends, icon: MessageCircle, also: [ROUTES.home] },
  { label: 'Groups', to: ROUTES.groups, icon: Users },
  { label: 'Assignments', to: ROUTES.assignments, icon: ClipboardList },
  { label: 'Courses', to: ROUTES.courses, icon: BookOpen },
  { label: 'Flashcards', to: ROUTES.flashcards, icon: Layers },
  { label: 'Schedule', to: ROUTES.schedule, icon: CalendarClock },
  { label: 'Feedback', to: ROUTES.feedback, icon: MessageSquareHeart },
];

export function isNavLinkActive(link: NavLinkDef, pathname: string): boolean {
  return pathname === link.to || (link.also ?? []).includes(pathname);
}
