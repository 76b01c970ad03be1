// The part of @xmpp/client (which ships no types) the chat benchmark uses.
declare module '@xmpp/client' {
  import type { EventEmitter } from 'node:events';

  export interface XmppElement {
    name: string;
    attrs: Record<string, string | undefined>;
    is(name: string): boolean;
    getChild(name: string): XmppElement | undefined;
    getChildren(name: string): XmppElement[];
    toString(): string;
  }

  export interface XmppClient extends EventEmitter {
    start(): Promise<unknown>;
    stop(): Promise<void>;
    send(element: XmppElement): Promise<void>;
    reconnect: { stop(): void };
    iqCaller: { request(element: XmppElement): Promise<XmppElement> };
  }

  export function client(options: {
    service: string;
    domain: string;
    resource?: string;
    timeout?: number;
    username?: string;
    password?: string;
    credentials?: (authenticate: (credentials: object, mechanism: string) => Promise<void>) => Promise<void>;
  }): XmppClient;

  export function xml(name: string, attrs?: Record<string, string>, ...children: (XmppElement | string)[]): XmppElement;
}
