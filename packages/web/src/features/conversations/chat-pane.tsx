import { Group } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { chatIdFor } from '@studybuddy/shared/chat';
import { MSG } from '@studybuddy/shared/messages';
import { LoadingWrapper } from '../../ui/loading-wrapper.tsx';
import { useSession } from '../auth/index.ts';
import { BlockButton, BlockedChatNotice } from '../blocks/index.ts';
import { ReportButton } from '../moderation/index.ts';
import { FindATimeButton } from '../schedule/index.ts';
import { PlanFromSlot, PlanSessionButton } from '../study-sessions/index.ts';
import { conversationsApi, conversationKeys } from './conversations-api.ts';
import { ConversationHeader } from './conversation-header.tsx';
import { ConversationView } from './conversation-view.tsx';

interface Props {
  friendId: string;
  /** Shows a back button at 768 px or less (the friends screen returns to its list). */
  onBack?: () => void;
  /** Opens the chat at this message (its cursor: a search result). */
  focusCursor?: number;
  /** The student blocked this former friend: the history only, with Unblock in the composer's place (issue 24). */
  readOnly?: boolean;
  /** After the student blocked them from the header. */
  onBlocked?: () => void;
}

/**
 * The one-to-one chat with a friend (right pane of /friends): text, images and voice, live. With a student the
 * student blocked, `readOnly`: the history, and Unblock in the composer's place.
 */
export function ChatPane({ friendId, onBack, focusCursor, readOnly, onBlocked }: Props) {
  const session = useSession();
  const me = session.data?.user?.id;
  const chatId = me ? chatIdFor(me, friendId) : '';
  const info = useQuery({
    queryKey: conversationKeys.info(chatId),
    queryFn: () => conversationsApi.info(chatId),
    enabled: !!chatId,
  });

  if (!me || !info.data) {
    return <LoadingWrapper fill loading={!info.error} error={info.error} message={MSG.loading.loading} />;
  }
  const { friend } = info.data;
  return (
    <ConversationView
      key={`${chatId}:${focusCursor ?? ''}`}
      conversation={{ kind: 'chat', id: chatId }}
      focusCursor={focusCursor}
      me={{ id: me, name: session.data?.profile?.name || MSG.chat.anonymous }}
      peerLastRead={info.data.friendLastRead}
      showNames={false}
      readOnly={readOnly ? <BlockedChatNotice userId={friend.id} name={friend.name} /> : undefined}
      header={
        <ConversationHeader
          title={friend.name}
          picture={friend.profilePicture}
          onBack={onBack}
          backLabel={MSG.friends.back}
          actions={
            <Group gap={4} wrap="nowrap">
              {!readOnly && (
                <FindATimeButton
                  target={{ kind: 'friend', id: friend.id }}
                  slotAction={(slot, close) => (
                    <PlanFromSlot conversation={{ kind: 'chat', id: chatId }} slot={slot} onOpen={close} />
                  )}
                />
              )}
              {!readOnly && <PlanSessionButton conversation={{ kind: 'chat', id: chatId }} name={friend.name} />}
              <ReportButton compact userId={friend.id} name={friend.name} />
              {!readOnly && <BlockButton compact userId={friend.id} name={friend.name} onBlocked={onBlocked} />}
            </Group>
          }
        />
      }
    />
  );
}
