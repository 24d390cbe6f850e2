// Entity Ville. This file is yours: fw-mvc created it once and never overwrites it.
export { Ville } from './ville.js';
export { VilleBase, type VilleData, type VilleRow } from './ville_base.js';
