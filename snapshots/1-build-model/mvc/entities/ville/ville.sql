-- fw-mvc: generated file, do not edit (regenerate with: fw sync:entity Ville)
-- Entity Ville (mvc/entities/ville/ville.json), table ville.

CREATE TABLE IF NOT EXISTS `ville` (
  `Id` INT UNSIGNED NOT NULL AUTO_INCREMENT,
  `Nom` VARCHAR(100) NOT NULL,
  `CodePostal` CHAR(5) NOT NULL,
  PRIMARY KEY (`Id`),
  UNIQUE KEY `uq_ville_codepostal` (`CodePostal`),
  KEY `ix_ville_nom` (`Nom`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
