/**
 * The page's Content-Security-Policy nonce for the `<style>` elements libraries add at run time: the server
 * writes it into the `csp-nonce` meta of each index.html it serves (Vite's `html.cspNonce`).
 */
const meta = document.querySelector<HTMLMetaElement>('meta[property=csp-nonce]');
export const cspNonce: string | undefined = meta?.nonce || meta?.getAttribute('nonce') || undefined;

// react-remove-scroll (under Mantine's Modal and Drawer) reads the nonce from this global (get-nonce).
if (cspNonce) (globalThis as { __webpack_nonce__?: string }).__webpack_nonce__ = cspNonce;

/** For MantineProvider: its `<style>` elements carry the nonce (none when the page has none). */
export const getStyleNonce: (() => string) | undefined = cspNonce ? () => cspNonce : undefined;
