-- fw-mvc: generated file, do not edit (regenerate with: fw sync:entity Tag)
-- Entity Tag (mvc/entities/tag/tag.json), table tag.

CREATE TABLE IF NOT EXISTS `tag` (
  `Id` INT UNSIGNED NOT NULL AUTO_INCREMENT,
  `Libelle` VARCHAR(50) NOT NULL,
  PRIMARY KEY (`Id`),
  UNIQUE KEY `uq_tag_libelle` (`Libelle`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
