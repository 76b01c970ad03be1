// `npm run dev`: API with restart-on-change and Vite with hot reload (open http://localhost:5173).
import { spawn } from 'node:child_process';
import { ensureDependencies } from './lib.mjs';

ensureDependencies();
const children = [
  spawn('npm', ['run', 'dev', '-w', 'packages/server'], { stdio: 'inherit' }),
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
