import type {
  Authorization,
  EmuCalendar,
  InsertFault,
  IssuedToken,
  Revocation,
  RevokeFault,
  StoredEvent,
} from './model.ts';

/** Everything the emulator remembers; tests read it through the Emulator object or `GET /__emulator/state`. */
export interface EmulatorState {
  clientId: string;
  clientSecret: string;
  /** Lifetime of access tokens in seconds (`expires_in`). */
  expiresIn: number;
  calendars: EmuCalendar[];
  authorizations: Authorization[];
  tokens: Map<string, IssuedToken>;
  events: StoredEvent[];
  faults: InsertFault[];
  revocations: Revocation[];
  revokeFault: RevokeFault | null;
}
