// Entity Tag. This file is yours: fw-mvc created it once and never overwrites it.
export { Tag } from './tag.js';
export { TagBase, type TagData, type TagRow } from './tag_base.js';
