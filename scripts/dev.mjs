// `npm run dev`: API with restart-on-change and Vite with hot reload (open http://localhost:5173).
import { spawn } from 'node:child_process';
import { ensureDependencies } from './lib.mjs';

ensureDependencies();
// A local Canvas emulator with demo courses (token printed by it), unless real Canvas addresses are configured.
const canvas = 'http://127.0.0.1:4010';
const serverEnv = {
  ...process.env,
  CANVAS_URL_UCLA: process.env.CANVAS_URL_UCLA ?? canvas,
  CANVAS_URL_CMU: process.env.CANVAS_URL_CMU ?? canvas,
  CANVAS_URL_WISC: process.env.CANVAS_URL_WISC ?? canvas,
};
const children = [
  spawn('npm', ['run', 'start', '-w', 'packages/canvas-emulator'], { stdio: 'inherit' }),
  spawn('npm', ['run', 'dev', '-w', 'packages/server'], { stdio: 'inherit', env: serverEnv }),
  spawn('npm', ['run', 'dev', '-w', 'packages/web'], { stdio: 'inherit' }),
];
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
children.forEach((c) =>
  c.on('exit', (code) => {
    stop();
    process.exit(code ?? 0);
  }),
);
