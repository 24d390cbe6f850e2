-- fw-mvc: generated file, do not edit (regenerate with: fw sync:entity Contact)
-- Entity Contact (mvc/entities/contact/contact.json), table contact.
-- Its foreign keys are in relations.sql, applied once every table exists.

CREATE TABLE IF NOT EXISTS `contact` (
  `Id` INT UNSIGNED NOT NULL AUTO_INCREMENT,
  `Nom` VARCHAR(250) NOT NULL,
  `Prenom` VARCHAR(100) NOT NULL,
  `Email` VARCHAR(190) NOT NULL,
  `DateNaissance` DATE NULL,
  `Solde` DECIMAL(10,2) NULL,
  `NbVisites` INT UNSIGNED NOT NULL,
  `Actif` TINYINT(1) NOT NULL,
  `VilleId` INT UNSIGNED NULL,
  `CodeClient` VARCHAR(20) NULL,
  PRIMARY KEY (`Id`),
  UNIQUE KEY `uq_contact_email` (`Email`),
  KEY `ix_contact_actif` (`Actif`),
  KEY `ix_contact_villeid` (`VilleId`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
