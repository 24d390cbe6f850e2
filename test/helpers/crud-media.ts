// The media of `fw make:crud --media` in tests: an entity with the four kinds of media entry (single image, gallery,
// single file, file list), compiled by the real compiler, and real files made in the test (images by sharp, a PDF).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { compileProject, formatDiagnostics, type ModelNode } from '../../compiler/index.js';
import { ID } from './crud-cli-project.js';

/** Produit: a photo (cover, variants), a gallery (variants, multiple), a notice (a file) and attachments (files, multiple). */
export const PRODUIT = {
  format_version: 1,
  entity: 'Produit',
  table: 'produits',
  description: 'Un produit du catalogue',
  fields: [ID, { name: 'nom', sql_type: 'VARCHAR(100)', constraints: { not_empty: true } }, { name: 'reference', sql_type: 'VARCHAR(30)', unique: true }],
  media: [
    { name: 'photo', field: 'image', role: 'cover', label: 'Photo', variants: true },
    { name: 'galerie', field: 'image', role: 'gallery', label: 'Galerie', variants: true, multiple: true },
    { name: 'notice', field: 'file', label: 'Notice' },
    { name: 'pieces_jointes', field: 'file', label: 'Pièces jointes', multiple: true },
  ],
};

/** A definition with other media entries (the rest of PRODUIT kept). */
export function produitWith(media: readonly object[]): typeof PRODUIT {
  return { ...PRODUIT, media: media as typeof PRODUIT.media };
}

/** The model of these entity definitions, compiled from a temporary project (removed). */
export function compileEntities(definitions: ReadonlyArray<{ entity: string }>): ModelNode {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-media-model-'));
  try {
    for (const definition of definitions) {
      const snake = definition.entity.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
      fs.mkdirSync(path.join(root, 'mvc', 'entities', snake), { recursive: true });
      fs.writeFileSync(path.join(root, 'mvc', 'entities', snake, `${snake}.json`), JSON.stringify(definition));
    }
    const result = compileProject(root);
    if (!result.model) throw new Error(`les entités de test ne compilent pas :\n${formatDiagnostics(result.diagnostics)}`);
    return result.model;
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** A JPEG of that size, a plain colour with a white disc (so that a crop or a squeeze shows on a screenshot). */
export function jpeg(width: number, height: number, background: { r: number; g: number; b: number }): Promise<Buffer> {
  const disc = Buffer.from(
    `<svg width="${width}" height="${height}"><circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 3}" fill="white"/></svg>`,
  );
  return sharp({ create: { width, height, channels: 3, background } })
    .composite([{ input: disc }])
    .jpeg()
    .toBuffer();
}

export function png(width: number, height: number, background: { r: number; g: number; b: number }): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();
}

/** A small, valid one-page PDF. */
export const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

/** A file part of a multipart form: [field, file name, bytes, Content-Type]. */
export type FilePart = readonly [field: string, filename: string, data: Buffer, type: string];

/** The files under a folder (relative posix paths, sorted), `.gitkeep` left out. */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (current: string): void => {
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name !== '.gitkeep') out.push(path.relative(dir, full).split(path.sep).join('/'));
    }
  };
  walk(dir);
  return out.sort();
}
