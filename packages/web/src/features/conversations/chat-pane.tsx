import { Alert, Center, Loader } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { chatIdFor } from '@studybuddy/shared/chat';
import { MSG } from '@studybuddy/shared/messages';
import { useSession } from '../auth/index.ts';
import { conversationsApi, conversationKeys } from './conversations-api.ts';
import { ConversationHeader } from './conversation-header.tsx';
import { ConversationView } from './conversation-view.tsx';

interface Props {
  friendId: string;
  /** Shows a back button at 768 px or less (the friends screen returns to its list). */
  onBack?: () => void;
}

/** The one-to-one chat with a friend (right pane of /friends): text, images and voice, live. */
export function ChatPane({ friendId, onBack }: Props) {
  const session = useSession();
  const me = session.data?.user?.id;
  const chatId = me ? chatIdFor(me, friendId) : '';
  const info = useQuery({
    queryKey: conversationKeys.info(chatId),
    queryFn: () => conversationsApi.info(chatId),
    enabled: !!chatId,
  });

  if (info.error) {
    return (
      <Center h="100%" p="xl">
        <Alert color="red" role="alert">
          {info.error.message}
        </Alert>
      </Center>
    );
  }
  if (!me || !info.data) {
    return (
      <Center h="100%" role="status" aria-label={MSG.loading.loading}>
        <Loader />
      </Center>
    );
  }
  const { friend } = info.data;
  return (
    <ConversationView
      key={chatId}
      conversation={{ kind: 'chat', id: chatId }}
      me={{ id: me, name: session.data?.profile?.name || MSG.chat.anonymous }}
      peerLastRead={info.data.friendLastRead}
      showNames={false}
      header={
        <ConversationHeader
          title={friend.name}
          picture={friend.profilePicture}
          onBack={onBack}
          backLabel={MSG.friends.back}
        />
      }
    />
  );
}
