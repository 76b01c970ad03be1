// Test and benchmark fixtures: real files of every supported format, made on the spot.
import { createCanvas } from '@napi-rs/canvas';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { PDFDocument, StandardFonts } from 'pdf-lib';

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A PDF with a real text layer: one page per entry, lines drawn in Helvetica and wrapped. */
export async function textPdf(pages: string[][]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = doc.addPage([612, 792]);
    let y = 740;
    for (const line of lines) {
      const words = line.split(' ');
      let current = '';
      for (const w of words) {
        const next = current ? `${current} ${w}` : w;
        if (font.widthOfTextAtSize(next, 11) > 520) {
          page.drawText(current, { x: 46, y, size: 11, font });
          y -= 15;
          current = w;
        } else current = next;
      }
      if (current) page.drawText(current, { x: 46, y, size: 11, font });
      y -= 22;
    }
  }
  return Buffer.from(await doc.save());
}

/** A PNG "photo" of typed text: black lines on white, as a scanner or a phone would give. */
export async function textImage(lines: string[], opts: { width?: number; fontPx?: number } = {}): Promise<Buffer> {
  const fontPx = opts.fontPx ?? 40;
  const width = opts.width ?? 1700;
  const canvas = createCanvas(width, Math.ceil(fontPx * 1.8 * lines.length + fontPx * 2));
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = '#111111';
  ctx.font = `${fontPx}px sans-serif`;
  lines.forEach((line, i) => ctx.fillText(line, fontPx, fontPx * 1.6 + i * fontPx * 1.8));
  return canvas.encode('png');
}

/** A scanned PDF: every page is only an image of its text (no text layer), sized like the image at 300 dpi. */
export async function scannedPdf(pages: string[][], opts: { fontPx?: number } = {}): Promise<Buffer> {
  const doc = await PDFDocument.create();
  for (const lines of pages) {
    const png = await doc.embedPng(await textImage(lines, { fontPx: opts.fontPx }));
    const page = doc.addPage([(png.width * 72) / 300, (png.height * 72) / 300]);
    page.drawImage(png, { x: 0, y: 0, width: page.getWidth(), height: page.getHeight() });
  }
  return Buffer.from(await doc.save());
}

export async function docx(paragraphs: string[]): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ' +
      'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" ' +
      'Target="word/document.xml"/></Relationships>',
  );
  zip.file(
    'word/document.xml',
    '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>' +
      paragraphs.map((p) => `<w:p><w:r><w:t xml:space="preserve">${xml(p)}</w:t></w:r></w:p>`).join('') +
      '</w:body></w:document>',
  );
  return zip.generateAsync({ type: 'nodebuffer' });
}

export async function pptx(slides: string[][]): Promise<Buffer> {
  const zip = new JSZip();
  const ns =
    'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/>' +
      slides
        .map(
          (_, i) =>
            `<Override PartName="/ppt/slides/slide${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.slide+xml"/>`,
        )
        .join('') +
      '</Types>',
  );
  zip.file('ppt/presentation.xml', `<?xml version="1.0" encoding="UTF-8"?><p:presentation ${ns}/>`);
  slides.forEach((lines, i) =>
    zip.file(
      `ppt/slides/slide${i + 1}.xml`,
      `<?xml version="1.0" encoding="UTF-8"?><p:sld ${ns}><p:cSld><p:spTree><p:sp><p:txBody>` +
        lines.map((l) => `<a:p><a:r><a:t>${xml(l)}</a:t></a:r></a:p>`).join('') +
        '</p:txBody></p:sp></p:spTree></p:cSld></p:sld>',
    ),
  );
  return zip.generateAsync({ type: 'nodebuffer' });
}

export async function xlsx(sheets: Record<string, (string | number)[][]>): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) {
    const ws = wb.addWorksheet(name);
    for (const row of rows) ws.addRow(row);
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

export const rtf = (paragraphs: string[]) =>
  Buffer.from(`{\\rtf1\\ansi{\\fonttbl\\f0\\fswiss Helvetica;}\\f0\\pard ${paragraphs.join('\\par ')}\\par}`);

/** Starts like a PDF, then is garbage. */
export const corruptPdf = () =>
  Buffer.concat([Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R'), Buffer.alloc(4096, 0x5a)]);

/** A valid PDF of at least `bytes` bytes (a text page padded with an embedded blob). */
export async function bigPdf(bytes: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([612, 792]).drawText('A very large document.', { x: 50, y: 700, size: 12, font });
  await doc.attach(Buffer.alloc(bytes, 7), 'padding.bin', { mimeType: 'application/octet-stream' });
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}
