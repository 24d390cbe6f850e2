-- fw-mvc: generated file, do not edit (regenerate with: fw sync:relations)
-- Apply after every entity table: pivot tables of many-to-many relations.

-- contact_tag: many_to_many Contact.id -> Tag.id
CREATE TABLE IF NOT EXISTS "contact_tag" (
  "ContactId" INT UNSIGNED NOT NULL,
  "TagId" INT UNSIGNED NOT NULL,
  "AjouteLe" DATETIME NOT NULL,
  PRIMARY KEY ("ContactId", "TagId"),
  CONSTRAINT "fk_contact_tag_contact" FOREIGN KEY ("ContactId") REFERENCES "contact" ("Id") ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT "fk_contact_tag_tag" FOREIGN KEY ("TagId") REFERENCES "tag" ("Id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX IF NOT EXISTS "ix_contact_tag_tagid" ON "contact_tag" ("TagId");

-- contact_ville: many_to_one Contact.ville_id -> Ville.id
-- (inline in contact/contact.sqlite.sql)
