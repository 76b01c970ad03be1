// The moderation feature's public entry: reporting from a student's card, a chat header and a message's menu (the
// admin page is loaded by the router).
export { MessageMenu, ReportButton } from './report-dialog.tsx';
