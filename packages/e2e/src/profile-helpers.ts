import type { Page } from 'playwright-core';

/** Signs the page's context in through the log-in API (the cookie lands in the browser context). */
export async function logIn(page: Page, baseUrl: string, email: string, password = 'password123'): Promise<void> {
  const res = await page.request.post(`${baseUrl}/api/auth/login`, { data: { email, password } });
  if (!res.ok()) throw new Error(`log-in of ${email} failed: ${res.status()} ${await res.text()}`);
}

/**
 * An image drawn by the browser itself: a gradient with a few shapes, or random noise (which does not
 * compress: a noise PNG is about width × height × 3 bytes).
 */
export async function makeImage(
  page: Page,
  opts: { width: number; height: number; type: 'image/jpeg' | 'image/png'; noise?: boolean; seed?: number },
): Promise<Buffer> {
  const base64 = await page.evaluate(({ width, height, type, noise, seed }) => {
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext('2d')!;
    if (noise) {
      const img = ctx.createImageData(width, height);
      const data = new Uint32Array(img.data.buffer);
      for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 0xffffff) | 0xff000000;
      ctx.putImageData(img, 0, 0);
    } else {
      const g = ctx.createLinearGradient(0, 0, width, height);
      g.addColorStop(0, `hsl(${(seed ?? 0) * 47}, 70%, 60%)`);
      g.addColorStop(1, `hsl(${(seed ?? 0) * 47 + 120}, 70%, 40%)`);
      ctx.fillStyle = g;
      ctx.fillRect(0, 0, width, height);
      ctx.fillStyle = '#fff';
      ctx.beginPath();
      ctx.arc(width / 2, height / 2, Math.min(width, height) / 4, 0, Math.PI * 2);
      ctx.fill();
    }
    return canvas.toDataURL(type, 0.92).split(',')[1]!;
  }, opts);
  return Buffer.from(base64, 'base64');
}

/** Clicks a button that opens a file chooser and gives it these files. */
export async function chooseFiles(
  page: Page,
  buttonName: string,
  files: { name: string; mimeType: string; buffer: Buffer }[],
): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: buttonName, exact: true }).click();
  await (await chooser).setFiles(files);
}
