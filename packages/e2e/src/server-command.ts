/**
 * The built server (global-setup.ts builds it when its sources are newer): tsx would compile the whole server in
 * every journey's server and seed process.
 */
export const SERVER_COMMAND = {
  main: ['--enable-source-maps', 'packages/server/dist/main.js'],
  seed: ['--enable-source-maps', 'packages/server/dist/seed.js'],
};
