import { Avatar, Group, Text, ThemeIcon } from '@mantine/core';
import { ClipboardList, FileText, MessageSquare, Users } from 'lucide-react';
import type { ReactNode } from 'react';
import { MSG } from '@studybuddy/shared/messages';
import { formatDate, formatWhen } from '../../lib/date-format.ts';
import { Highlighted } from './highlighted.tsx';
import type { SearchOption } from './search-options.ts';

const due = (iso: string | null) => (iso ? MSG.search.due(formatWhen(iso)) : MSG.search.noDueDate);
const join = (...parts: string[]) => parts.filter(Boolean).join(' · ');

function Row({ icon, title, detail }: { icon: ReactNode; title: ReactNode; detail: ReactNode }) {
  return (
    <Group gap="sm" wrap="nowrap" align="flex-start">
      {icon}
      <div style={{ minWidth: 0, flex: 1 }}>
        <Text size="sm" fw={500} lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
          {title}
        </Text>
        <Text size="xs" c="dimmed" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
          {detail}
        </Text>
      </div>
    </Group>
  );
}

const kindIcon = (icon: ReactNode) => (
  <ThemeIcon variant="light" color="indigo" size={36} radius="xl" aria-hidden>
    {icon}
  </ThemeIcon>
);

/** What one result shows: its kind's icon or picture, the matched words marked, and where it is. */
export function SearchOptionContent({ option }: { option: SearchOption }) {
  switch (option.kind) {
    case 'people': {
      const p = option.hit;
      return (
        <Row
          icon={<Avatar src={p.profilePicture} alt="" radius="xl" size={36} />}
          title={<Highlighted snippet={p.name} />}
          detail={join(p.friend ? MSG.search.friend : MSG.search.sameCollege, p.major, p.year)}
        />
      );
    }
    case 'groups': {
      const g = option.hit;
      return (
        <Row
          icon={kindIcon(<Users size={18} />)}
          title={<Highlighted snippet={g.name} />}
          detail={join(g.kind === 'hot' ? MSG.search.hotGroup : MSG.search.group, g.description)}
        />
      );
    }
    case 'messages': {
      const m = option.hit;
      return (
        <Row
          icon={kindIcon(<MessageSquare size={18} />)}
          title={<Highlighted snippet={m.snippet} />}
          detail={join(MSG.search.inConversation(m.title, m.senderName), formatDate(m.createdAt))}
        />
      );
    }
    case 'coursework': {
      const c = option.hit;
      return (
        <Row
          icon={kindIcon(<ClipboardList size={18} />)}
          title={<Highlighted snippet={c.name} />}
          detail={join(c.courseName, due(c.dueDate))}
        />
      );
    }
    case 'documents': {
      const d = option.hit;
      return (
        <Row
          icon={kindIcon(<FileText size={18} />)}
          title={join(d.name, d.label)}
          detail={
            <>
              {d.courseName && `${d.courseName}: `}
              <Highlighted snippet={d.snippet} />
            </>
          }
        />
      );
    }
  }
}
