import { NunjucksRenderer } from '/work/main/dist/runtime/templates/nunjucks.js';
import path from 'node:path';
const FRAMEWORK = process.env.FWV ?? '/work/main/runtime/views';
const OLD = '/tmp/h4/old-views/snapshots/2-make-crud-contact/mvc/views';
const NEW = path.resolve('snapshots/2-make-crud-contact/mvc/views');
const rows = Array.from({ length: 20 }, (_, i) => ({ id: 100 - i, nom: `Nom ${i}`, prenom: `Prénom ${i}`, email: `a${i}@b.fr`, telephone: '0102030405', date_naissance: '1990-01-02', solde: '12.50', nb_visites: i, actif: i % 2 === 0, ville_id: 3, ville_id_label: 'Lyon' }));
const context = {
  title: 'Contacts', base: '/contacts', key: 'id', rows, layout: 'layouts/app.html',
  pagination: { pageCount: 5, hasPrev: true, hasNext: true, prevUrl: '?page=1', nextUrl: '?page=3', links: [{ page: 1, url: '?page=1' }, { page: 2, url: '?page=2', current: true }, { page: 3, url: '?page=3' }], total: 100 },
  total_label: '100 contacts', q: '', sort: '', direction: '', filters: {}, filter_choices: { ville_id: [{ value: '3', label: 'Lyon' }], tag_ids: [] },
  sort_urls: Object.fromEntries(['id','nom','prenom','email','telephone','date_naissance','solde','nb_visites','actif','ville_id'].map((k) => [k, `/contacts?sort=${k}&direction=asc`])),
  sort_states: {}, is_filtered: false, empty_context: 'general', empty_message: 'Aucun', reset_url: '/contacts', export_url: '/contacts/export.csv',
  state: { page: '2' }, partial: false, allowed: { index: true, show: true, create: true, update: true, delete: true, export: true },
  csrf_token: () => 'tok',
};
const which = process.argv[2];
const views = which === 'old' ? OLD : NEW;
const renderer = new NunjucksRenderer({ searchPaths: [views, FRAMEWORK] });
const template = process.argv[3] ?? 'contact/index.html';
let out = '';
for (let i = 0; i < 300; i++) out = renderer.render(template, context);
const samples = [];
for (let r = 0; r < 15; r++) {
  const t0 = process.cpuUsage();
  for (let i = 0; i < 300; i++) out = renderer.render(template, context);
  const d = process.cpuUsage(t0);
  samples.push((d.user + d.system) / 300);
}
samples.sort((a, b) => a - b);
console.log(`${which} ${template}: median ${samples[7].toFixed(1)} µs CPU per render, min ${samples[0].toFixed(1)} (${out.length} bytes)`);
