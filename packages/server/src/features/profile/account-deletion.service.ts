// Account deletion belongs to the accounts feature; profile.routes.ts still imports it from here.
export { deleteAccount, registerAccountCleanup, FRESH_SIGN_IN_MS } from '../auth/account-deletion.service.ts';
