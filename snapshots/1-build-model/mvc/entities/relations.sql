-- fw-mvc: generated file, do not edit (regenerate with: fw sync:relations)
-- Apply after every entity table: many-to-one foreign keys and many-to-many pivot tables, by relation name.

-- contact_tag: many_to_many Contact.id -> Tag.id
CREATE TABLE IF NOT EXISTS `contact_tag` (
  `ContactId` INT UNSIGNED NOT NULL,
  `TagId` INT UNSIGNED NOT NULL,
  `AjouteLe` DATETIME NOT NULL,
  PRIMARY KEY (`ContactId`, `TagId`),
  KEY `ix_contact_tag_tagid` (`TagId`),
  CONSTRAINT `fk_contact_tag_contact` FOREIGN KEY (`ContactId`) REFERENCES `contact` (`Id`) ON DELETE CASCADE ON UPDATE CASCADE,
  CONSTRAINT `fk_contact_tag_tag` FOREIGN KEY (`TagId`) REFERENCES `tag` (`Id`) ON DELETE CASCADE ON UPDATE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;

-- contact_ville: many_to_one Contact.ville_id -> Ville.id
ALTER TABLE `contact` ADD CONSTRAINT `fk_contact_villeid` FOREIGN KEY (`VilleId`) REFERENCES `ville` (`Id`) ON DELETE RESTRICT ON UPDATE CASCADE;
