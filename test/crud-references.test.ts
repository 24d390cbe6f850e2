// Which foreign keys keep a record from being deleted (the plan's `references`: many-to-one and pivot sides whose
// on_delete is RESTRICT or NO ACTION, a self-reference marked), and the runtime's count of the referencing rows
// (`findReferences`: rows deleted together do not block each other) and its ForeignKeyError, on SQLite and MariaDB
// (docs/crud.md "Deleting a record that others refer to").
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite, test } from 'uvu';
import * as assert from 'uvu/assert';
import { modelNode } from '../compiler/ir.js';
import { crudPlan } from '../emitters/crud/plan.js';
import { ForeignKeyError, openDatabase, type Database, type DialectName } from '../runtime/db/index.js';
import { InUseError, findReferences, inUseError, inUseMessage, type ReferenceSpec } from '../runtime/crud/references.js';
import { entity, field, idField, manyToMany, manyToOne } from './emitters-fixture.js';
import { MARIADB_ADMIN } from './helpers/cli.js';
import { DIALECTS } from './helpers/dialects.js';

test('plan: RESTRICT and NO ACTION many-to-one and pivot sides are counted, CASCADE and SET NULL are not; a self-reference is marked', () => {
  const categorie = entity('Categorie', [idField(), field('nom', 'VARCHAR(100)'), field('parent_id', 'INT', { nullable: true })], 'categories');
  const article = entity(
    'Article',
    [idField(), field('titre', 'VARCHAR(100)'), field('categorie_id', 'INT'), field('fournisseur_id', 'INT', { nullable: true })],
    'articles',
  );
  const fournisseur = entity('Fournisseur', [idField(), field('nom', 'VARCHAR(100)')], 'fournisseurs');
  const tag = entity('Tag', [idField(), field('nom', 'VARCHAR(50)')], 'tags');
  const couleur = entity('Couleur', [idField(), field('nom', 'VARCHAR(50)')], 'couleurs');
  const model = modelNode({
    entities: [article, categorie, couleur, fournisseur, tag],
    relations: [
      manyToOne('categorie_parent', 'Categorie.parent_id', 'Categorie.id', { foreignKeyName: 'fk_categories_parent' }),
      manyToOne('article_categorie', 'Article.categorie_id', 'Categorie.id', { foreignKeyName: 'fk_articles_categorie', onDelete: 'NO ACTION' }),
      manyToOne('article_fournisseur', 'Article.fournisseur_id', 'Fournisseur.id', { foreignKeyName: 'fk_articles_fournisseur', onDelete: 'SET NULL' }),
      manyToMany('article_tags', 'Article.id', 'Tag.id', { pivotTable: 'article_tag', foreignKeyName: 'fk_article_tag', onDelete: 'RESTRICT' }),
      manyToMany('article_couleurs', 'Article.id', 'Couleur.id', { pivotTable: 'article_couleur', foreignKeyName: 'fk_article_couleur' }),
    ],
  });
  assert.equal(crudPlan(model, 'Categorie').references, [
    { table: 'categories', column: 'ParentId', target: 'Id', selfKey: 'Id', one: 'categorie', many: 'categories' },
    { table: 'articles', column: 'CategorieId', target: 'Id', selfKey: null, one: 'article', many: 'articles' },
  ]);
  assert.equal(crudPlan(model, 'Fournisseur').references, [], 'SET NULL');
  assert.equal(crudPlan(model, 'Couleur').references, [], 'pivot CASCADE');
  // The pivot's rows are links to the other side: named after it.
  assert.equal(crudPlan(model, 'Tag').references, [{ table: 'article_tag', column: 'TagId', target: 'Id', selfKey: null, one: 'article', many: 'articles' }]);
  assert.equal(crudPlan(model, 'Article').references, [{ table: 'article_tag', column: 'ArticleId', target: 'Id', selfKey: null, one: 'tag', many: 'tags' }]);
});

test.run();

const SPECS: readonly ReferenceSpec[] = [
  { table: 'categories', column: 'ParentId', target: 'Id', selfKey: 'Id', one: 'catégorie', many: 'catégories' },
  { table: 'articles', column: 'CategorieId', target: 'Id', one: 'article', many: 'articles' },
];

function dialectSuite(dialect: DialectName): void {
  const t = suite(`crud-references: ${dialect}`);
  let db: Database;
  let dir = '';
  const name = `fw_test_refs_${randomBytes(5).toString('hex')}`;

  t.before(async () => {
    if (dialect === 'sqlite') {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-refs-'));
      db = openDatabase({ driver: 'sqlite', file: path.join(dir, 'app.sqlite') });
    } else {
      const server = openDatabase({ driver: 'mariadb', ...MARIADB_ADMIN, poolSize: 1 });
      await server.execute(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`).finally(() => server.close());
      db = openDatabase({ driver: 'mariadb', ...MARIADB_ADMIN, database: name, poolSize: 1 });
    }
    await db.execute(
      'CREATE TABLE categories (Id INT PRIMARY KEY, ParentId INT NULL, CONSTRAINT fk_categories_parent FOREIGN KEY (ParentId) REFERENCES categories (Id))',
    );
    await db.execute(
      'CREATE TABLE articles (Id INT PRIMARY KEY, CategorieId INT NOT NULL, CONSTRAINT fk_articles_categorie FOREIGN KEY (CategorieId) REFERENCES categories (Id))',
    );
    // 1 ← 2 ← 3 (parents), 4 alone; two articles in 3.
    await db.execute('INSERT INTO categories (Id, ParentId) VALUES (1, NULL), (2, 1), (3, 2), (4, NULL)');
    await db.execute('INSERT INTO articles (Id, CategorieId) VALUES (1, 3), (2, 3)');
  });
  t.after(async () => {
    await db?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    if (dialect === 'mariadb') {
      const server = openDatabase({ driver: 'mariadb', ...MARIADB_ADMIN, poolSize: 1 });
      await server.execute(`DROP DATABASE IF EXISTS \`${name}\``).finally(() => server.close());
    }
  });

  t('findReferences: counts per record and per table, in the order of the ids; rows deleted together do not block each other', async () => {
    const find = (ids: number[]) => db.transaction((tx) => findReferences('categories', 'Id', SPECS, ids, tx));
    assert.equal(await find([1]), [{ id: 1, references: [{ count: 1, one: 'catégorie', many: 'catégories' }] }]);
    assert.equal(await find([4, 3]), [{ id: 3, references: [{ count: 2, one: 'article', many: 'articles' }] }]);
    // 2 and 3 go with 1: only 3's articles block.
    const all = await find([1, 2, 3, 4]);
    assert.equal(
      all.map((b) => b.id),
      [3],
    );
    assert.is(
      inUseMessage(new InUseError(await find([2, 3]))),
      'Rien n’a été supprimé : des enregistrements font encore référence à #3 (2 articles). Retirez-les de la sélection, ou supprimez d’abord ce qui y fait référence.',
    );
    assert.is(
      inUseMessage(new InUseError(await find([2])), 'Catégorie #2'),
      'Suppression impossible : 1 catégorie fait encore référence à Catégorie #2. Supprimez-le ou rattachez-le d’abord à un autre enregistrement.',
    );
    assert.equal(await find([]), []);
  });

  t('the database refuses on its own: ForeignKeyError, which inUseError turns into an InUseError without counts', async () => {
    let caught: unknown;
    try {
      await db.execute('DELETE FROM categories WHERE Id = 3');
    } catch (err) {
      caught = err;
    }
    assert.instance(caught, ForeignKeyError);
    const fk = caught as ForeignKeyError;
    if (dialect === 'mariadb') {
      assert.is(fk.referenced, true);
      assert.is(fk.table, 'articles');
      assert.is(fk.constraint, 'fk_articles_categorie');
    } else {
      assert.is(fk.referenced, null);
    }
    const inUse = inUseError(fk);
    assert.instance(inUse, InUseError);
    assert.equal(inUse!.blocking, []);
    // A value that refers to no row is not a refused delete.
    let missing: unknown;
    try {
      await db.execute('INSERT INTO articles (Id, CategorieId) VALUES (9, 999)');
    } catch (err) {
      missing = err;
    }
    assert.instance(missing, ForeignKeyError);
    if (dialect === 'mariadb') assert.is(inUseError(missing), null);
    assert.is(inUseError(new Error('autre')), null);
  });

  return void t.run();
}

for (const dialect of DIALECTS) dialectSuite(dialect);
