-- fw-mvc: generated file, do not edit (regenerate with: fw sync:entity Produit)
-- Entity Produit (mvc/entities/produit/produit.json), table produits.

CREATE TABLE IF NOT EXISTS `produits` (
  `Id` INT NOT NULL AUTO_INCREMENT,
  `Nom` VARCHAR(100) NOT NULL,
  `Reference` VARCHAR(30) NOT NULL,
  PRIMARY KEY (`Id`),
  UNIQUE KEY `uq_produits_reference` (`Reference`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
