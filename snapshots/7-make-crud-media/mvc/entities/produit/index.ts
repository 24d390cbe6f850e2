// Entity Produit. This file is yours: fw-mvc created it once and never overwrites it.
export { Produit } from './produit.js';
export { ProduitBase, type ProduitData, type ProduitRow } from './produit_base.js';
