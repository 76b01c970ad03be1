/**
 * Node (libuv) accepts one connection per event-loop turn, and PGlite's queries take one turn each (connect.ts), so
 * under a steady stream of queries the server accepted connections only as fast as it ran queries: a burst of 600
 * queued connections took 2 s to accept, and a health probe or a student connecting behind it waited that long in
 * the kernel's accept queue while the event loop was never blocked (issues 23 and 31). A query's turn therefore
 * waits while the turn before it accepted a connection, for at most MAX_ACCEPT_TURNS turns in a row, so the accept
 * queue drains that many times faster and the database still gets a turn in every MAX_ACCEPT_TURNS + 1.
 */
export const MAX_ACCEPT_TURNS = 32;

// One count per process, as the event loop whose turns it counts is the process's.
let accepted = 0;

/** Counts a connection the server accepted (a listener of the HTTP server's 'connection' event). */
export function connectionAccepted(): void {
  accepted++;
}

/** Resolves in a later event-loop turn, once a turn has passed without accepting a connection (or after the cap). */
export function turnForQuery(): Promise<void> {
  return new Promise((resolve) => {
    let seen = accepted;
    let waited = 0;
    const turn = () => {
      if (accepted === seen || waited >= MAX_ACCEPT_TURNS) return resolve();
      seen = accepted;
      waited++;
      setImmediate(turn);
    };
    setImmediate(turn);
  });
}
