import { inlineIncludes, mergeExtends, flattenExtends } from '../dist/runtime/templates/inline-includes.js';
import { NunjucksRenderer } from '../dist/runtime/templates/nunjucks.js';
import fs from 'node:fs'; import path from 'node:path'; import os from 'node:os';
const OLD = '/tmp/h4/old-views/snapshots/2-make-crud-contact/mvc/views';
const NEW = path.resolve('snapshots/2-make-crud-contact/mvc/views');
const FW = path.resolve('runtime/views');
const reader = (paths) => (n) => { for (const p of paths) { const f = path.join(p, n); if (fs.existsSync(f)) return fs.readFileSync(f, 'utf8'); } };
const rOld = reader([OLD, FW]); const rNew = reader([NEW, FW]);
const variants = {
  old: inlineIncludes(rOld('contact/_results.html'), rOld),
  newBlocks: inlineIncludes(mergeExtends(rNew('contact/_results.html'), rNew), rNew),
  newFlat: inlineIncludes(flattenExtends(rNew('contact/_results.html'), rNew), rNew),
};
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-'));
for (const [k, v] of Object.entries(variants)) fs.writeFileSync(path.join(dir, k + '.html'), v);
const rows = Array.from({ length: 20 }, (_, i) => ({ id: 100 - i, nom: `Nom ${i}`, prenom: `Prénom ${i}`, email: `a${i}@b.fr`, telephone: '0102030405', date_naissance: '1990-01-02', solde: '12.50', nb_visites: i, actif: i % 2 === 0, ville_id: 3, ville_id_label: 'Lyon' }));
const context = { title: 'Contacts', base: '/contacts', key: 'id', rows, pagination: { pageCount: 5, hasPrev: true, hasNext: true, prevUrl: '?page=1', nextUrl: '?page=3', links: [{ page: 1, url: '?page=1' }, { page: 2, url: '?page=2', current: true }], total: 100 }, total_label: '100 contacts', q: '', sort: '', direction: '', filters: {}, filter_choices: {}, sort_urls: {}, sort_states: {}, is_filtered: false, empty_context: 'general', empty_message: 'Aucun', reset_url: '/contacts', export_url: '/x', state: { page: '2' }, partial: false, allowed: { index: true, show: true, create: true, update: true, delete: true, export: true }, csrf_token: () => 'tok' };
const renderer = new NunjucksRenderer({ searchPaths: [dir], inlineIncludes: false });
const measure = (name) => { for (let i = 0; i < 300; i++) renderer.render(name, context); const s = []; for (let r = 0; r < 15; r++) { const t0 = process.cpuUsage(); for (let i = 0; i < 300; i++) renderer.render(name, context); const d = process.cpuUsage(t0); s.push((d.user + d.system) / 300); } s.sort((a, b) => a - b); return s[7].toFixed(1); };
for (let k = 0; k < 2; k++) for (const name of Object.keys(variants)) console.log(name, measure(name + '.html'));
fs.rmSync(dir, { recursive: true });
