import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { MSG } from '@studybuddy/shared/messages';
import { pptx, rtf, xlsx } from '../test/fixtures.ts';
import { ExtractionError } from './extract-types.ts';
import { extractPptx } from './pptx-extract.ts';
import { extractRtf, RTF_MAX_DEPTH, rtfToText } from './rtf-extract.ts';
import { extractXlsx } from './xlsx-extract.ts';

const P = 'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
const A = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"';
const R = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const S = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
const RELS = 'xmlns="http://schemas.openxmlformats.org/package/2006/relationships"';

const zipOf = async (parts: Record<string, string>) => {
  const zip = new JSZip();
  for (const [name, text] of Object.entries(parts)) zip.file(name, text);
  return new Uint8Array(await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' }));
};

const slide = (paragraphs: string) =>
  `<?xml version="1.0"?><p:sld ${P} ${A}><p:cSld><p:spTree><p:sp><p:txBody>${paragraphs}</p:txBody></p:sp></p:spTree></p:cSld></p:sld>`;

async function refusal(p: Promise<unknown>, message: string) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ExtractionError);
  expect((err as ExtractionError).message).toBe(message);
}

describe('PPTX reader', () => {
  it('reads slides in the deck order of presentation.xml, with entities decoded and runs joined', async () => {
    const file = await zipOf({
      'ppt/presentation.xml': `<p:presentation ${P} ${R}><p:sldIdLst><p:sldId id="256" r:id="rId7"/><p:sldId id="257" r:id="rId3"/></p:sldIdLst></p:presentation>`,
      'ppt/_rels/presentation.xml.rels': `<Relationships ${RELS}><Relationship Id="rId3" Type="slide" Target="slides/slide1.xml"/><Relationship Id="rId7" Type="slide" Target="/ppt/slides/slide2.xml"/></Relationships>`,
      'ppt/slides/slide1.xml': slide('<a:p><a:r><a:t>Second &amp; last</a:t></a:r></a:p>'),
      'ppt/slides/slide2.xml': slide(
        '<a:p><a:r><a:rPr lang="en-US"/><a:t>Salt &lt;NaCl&gt; &#x2014; </a:t></a:r><a:r><a:t xml:space="preserve">ion&#233;s</a:t></a:r></a:p>' +
          '<a:p><a:r><a:t>Line one</a:t></a:r><a:br/><a:r><a:t>line two</a:t></a:r></a:p><a:p></a:p>',
      ),
      'ppt/slides/slide3.xml': slide('<a:p><a:r><a:t>Hidden: not in the deck</a:t></a:r></a:p>'),
    });
    expect(await extractPptx(file)).toEqual([
      {
        page: 1,
        unit: 'slide',
        label: 'slide 1',
        text: 'Salt <NaCl> \u2014 ionés\nLine one\nline two',
        method: 'text',
      },
      { page: 2, unit: 'slide', label: 'slide 2', text: 'Second & last', method: 'text' },
    ]);
  });

  it('falls back to the slide files by number (10 after 9) when the deck lists none', async () => {
    const parts: Record<string, string> = { 'ppt/presentation.xml': `<p:presentation ${P}/>` };
    for (let n = 1; n <= 10; n++) parts[`ppt/slides/slide${n}.xml`] = slide(`<a:p><a:r><a:t>S${n}</a:t></a:r></a:p>`);
    const pages = await extractPptx(await zipOf(parts));
    expect(pages.map((p) => `${p.label}=${p.text}`)).toEqual(
      Array.from({ length: 10 }, (_, i) => `slide ${i + 1}=S${i + 1}`),
    );
  });

  it('reads the deck the fixtures build, and refuses a file that is not a ZIP', async () => {
    const pages = await extractPptx(await pptx([['A & B', 'C'], [], ['D']]));
    expect(pages.map((p) => [p.page, p.text])).toEqual([
      [1, 'A & B\nC'],
      [3, 'D'],
    ]);
    await refusal(extractPptx(Buffer.from('not a zip at all, just some text here')), MSG.courses.unreadableFile);
  });
});

const workbook = (sheets: string) => `<workbook ${S} ${R}><sheets>${sheets}</sheets></workbook>`;
const workbookRels = (targets: Record<string, string>) =>
  `<Relationships ${RELS}>${Object.entries(targets)
    .map(([id, t]) => `<Relationship Id="${id}" Type="x" Target="${t}"/>`)
    .join('')}</Relationships>`;
const sheet = (rows: string) => `<worksheet ${S}><sheetData>${rows}</sheetData></worksheet>`;

describe('XLSX reader', () => {
  it('reads shared strings, inline strings, numbers and booleans per sheet, named and ordered by the workbook', async () => {
    const file = await zipOf({
      'xl/workbook.xml': workbook(
        '<sheet name="Grades &amp; marks" sheetId="1" r:id="rId2"/><sheet name="Empty" sheetId="2" r:id="rId3"/><sheet name="Notes" sheetId="3" r:id="rId1"/>',
      ),
      'xl/_rels/workbook.xml.rels': workbookRels({
        rId1: 'worksheets/sheet3.xml',
        rId2: 'worksheets/sheet1.xml',
        rId3: 'worksheets/sheet2.xml',
        rId9: 'sharedStrings.xml',
      }),
      'xl/sharedStrings.xml': `<sst ${S} count="3" uniqueCount="3"><si><t>Name</t></si><si><r><t>Sc</t></r><r><rPr><b/></rPr><t>ore</t></r><rPh><t>ignored</t></rPh></si><si><t>Ada &amp; Bob</t></si></sst>`,
      'xl/worksheets/sheet1.xml': sheet(
        '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>' +
          '<row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2"><v>97.5</v></c><c r="C2" t="b"><v>1</v></c></row>' +
          '<row r="3"><c r="A3" t="inlineStr"><is><t>Inline &lt;note&gt;</t></is></c><c r="B3" t="str"><f>A1</f><v>Name</v></c><c r="C3" s="2"/></row>' +
          '<row r="4"/>',
      ),
      'xl/worksheets/sheet2.xml': sheet(''),
      'xl/worksheets/sheet3.xml': sheet('<row r="1"><c r="A1" t="inlineStr"><is><r><t>Week 1</t></r></is></c></row>'),
    });
    expect(await extractXlsx(file)).toEqual([
      {
        page: 1,
        unit: 'sheet',
        label: 'sheet Grades & marks',
        text: 'Name\tScore\nAda & Bob\t97.5\tTRUE\nInline <note>\tName',
        method: 'text',
      },
      { page: 3, unit: 'sheet', label: 'sheet Notes', text: 'Week 1', method: 'text' },
    ]);
  });

  it('reads a workbook ExcelJS writes', async () => {
    const pages = await extractXlsx(await xlsx({ Data: [['x & y', 1.25, 'x & y']] }));
    expect(pages.map((p) => [p.label, p.text])).toEqual([['sheet Data', 'x & y\t1.25\tx & y']]);
  });

  it('is not led by a huge declared string count, nor by an index past the table', async () => {
    const started = Date.now();
    const file = await zipOf({
      'xl/workbook.xml': workbook('<sheet name="S" sheetId="1" r:id="rId1"/>'),
      'xl/_rels/workbook.xml.rels': workbookRels({ rId1: 'worksheets/sheet1.xml' }),
      'xl/sharedStrings.xml': `<sst ${S} count="4294967295" uniqueCount="4294967295"><si><t>only</t></si>${'<si/>'.repeat(200_000)}</sst>`,
      'xl/worksheets/sheet1.xml': sheet(
        '<row r="1"><c t="s"><v>0</v></c><c t="s"><v>4294967294</v></c><c t="s"><v>-1</v></c><c t="s"><v>1e9</v></c></row>',
      ),
    });
    expect(await extractXlsx(file)).toEqual([
      { page: 1, unit: 'sheet', label: 'sheet S', text: 'only', method: 'text' },
    ]);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('RTF reader', () => {
  it('reads text with unicode escapes, code-page bytes and symbols, leaving font and colour tables out', () => {
    const doc =
      '{\\rtf1\\ansi\\ansicpg1252\\deff0{\\fonttbl{\\f0\\froman\\fcharset0 Times New Roman;}{\\f1\\fswiss Arial;}}' +
      '{\\colortbl;\\red255\\green0\\blue0;}{\\stylesheet{\\s0 Normal;}}{\\info{\\title Secret title}{\\author Someone}}' +
      '{\\*\\generator Riched20;}{\\*\\unknowndest hidden words}\\viewkind4\\uc1\\pard\\f0\\fs24 ' +
      "Caf\\'e9 costs \\u8364?5 \\{braces\\} \\\\ back\\par " +
      "\\uc2 Greek \\u945\\'3f\\'3f and \\u-3913?? done\\par " +
      '{\\pict\\pngblip 89504e470d0a1a0a}Tab\\tab end \\emdash  {\\b bold}\\line next}';
    expect(rtfToText(Buffer.from(doc, 'latin1'))).toBe(
      'Café costs €5 {braces} \\ back\nGreek α and \uF0B7 done\nTab\tend \u2014 bold\nnext',
    );
  });

  it("decodes \\'hh bytes in the code page the document names", () => {
    expect(rtfToText(Buffer.from("{\\rtf1\\ansi\\ansicpg1251 \\'cf\\'f0\\'e8\\'e2\\'e5\\'f2}", 'latin1'))).toBe(
      'Привет',
    );
  });

  it('reads the fixture RTF into sections', async () => {
    const pages = await extractRtf(rtf(['First {\\i italic} para.', 'Second para.']));
    expect(pages).toEqual([
      { page: 1, unit: 'section', label: 'section 1', text: 'First italic para.\nSecond para.', method: 'text' },
    ]);
  });

  it('refuses groups nested past the bound at once, and reads nesting below it', async () => {
    const started = Date.now();
    const deep = Buffer.from(`{\\rtf1 ${'{'.repeat(5_000_000)}x`);
    await refusal(extractRtf(deep), MSG.courses.unreadableFile);
    const fine = `{\\rtf1 ${'{'.repeat(RTF_MAX_DEPTH - 1)}deep${'}'.repeat(RTF_MAX_DEPTH - 1)}}`;
    expect(rtfToText(Buffer.from(fine))).toBe('deep');
    // Unbalanced closers are harmless.
    expect(rtfToText(Buffer.from(`{\\rtf1 a${'}'.repeat(100_000)}b`))).toBe('ab');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('refuses a file that is not RTF', async () => {
    await refusal(extractRtf(Buffer.from('just text, named .rtf')), MSG.courses.unreadableFile);
  });
});
