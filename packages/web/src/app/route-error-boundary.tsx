import { Component, type ReactNode } from 'react';
import { Anchor, Center } from '@mantine/core';
import { useLocation } from 'react-router';
import { PUBLIC_MSG as MSG } from '@studybuddy/shared/messages/public';
import { LoadingWrapper } from '../ui/loading-wrapper.tsx';

interface Props {
  pathname: string;
  children: ReactNode;
}
interface State {
  error: unknown;
  pathname: string;
}

/**
 * A screen that throws, or whose chunk fails to load (say the app was redeployed while this tab was open),
 * shows the Error box and a retry link that reloads, instead of a blank page. Cleared by moving to another page
 * (without remounting the pages, as a key would).
 */
class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, pathname: this.props.pathname };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error ?? new Error(MSG.loading.error) };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.pathname === state.pathname ? null : { error: null, pathname: props.pathname };
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <>
        <LoadingWrapper loading={false} error={this.state.error} message={MSG.loading.error} />
        <Center>
          <Anchor component="button" type="button" onClick={() => window.location.reload()}>
            {MSG.loading.retry}
          </Anchor>
        </Center>
      </>
    );
  }
}

export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return <ErrorBoundary pathname={pathname}>{children}</ErrorBoundary>;
}
