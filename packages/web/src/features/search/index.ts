// The search feature's public entry: the shell's search button and Ctrl/Cmd+K (the dialog loads on first use).
export { SearchLauncher } from './search-launcher.tsx';
