/**
 * The French messages of the form fields, in one place. Each names the field by its label; the wording is
 * part of the contract (tests compare it exactly). Numbers in them are written as the pages write them
 * (`12,50` in French: docs/crud.md "Numbers").
 */
import { formatNumber } from '../templates/format-number.js';

const field = (label: string): string => `Le champ « ${label} »`;
const chars = (n: number): string => `${n} caractère${n > 1 ? 's' : ''}`;

export const messages = {
  required: (label: string) => `${field(label)} est obligatoire.`,
  minLength: (label: string, n: number) => `${field(label)} doit contenir au moins ${chars(n)}.`,
  maxLength: (label: string, n: number) => `${field(label)} doit contenir au plus ${chars(n)}.`,
  maxBytes: (label: string, n: number) =>
    `${field(label)} est trop long : ${n.toLocaleString('fr-FR')} octets au plus (une lettre accentuée en compte 2, un emoji 4).`,
  forbiddenCharacter: (label: string) => `${field(label)} contient un caractère non autorisé.`,
  pattern: (label: string) => `${field(label)} n’a pas le format attendu.`,
  integer: (label: string) => `${field(label)} doit être un nombre entier.`,
  tooLarge: (label: string) => `${field(label)} est hors des limites autorisées.`,
  min: (label: string, min: number | string) => `${field(label)} doit être supérieur ou égal à ${formatNumber(min)}.`,
  max: (label: string, max: number | string) => `${field(label)} doit être inférieur ou égal à ${formatNumber(max)}.`,
  number: (label: string) => `${field(label)} doit être un nombre (par exemple ${formatNumber('12.5')}).`,
  decimal: (label: string) => `${field(label)} doit être un nombre décimal (par exemple ${formatNumber('12.50')}).`,
  decimalPlaces: (label: string, n: number) => `${field(label)} doit comporter au plus ${n} décimale${n > 1 ? 's' : ''}.`,
  maxDigits: (label: string, n: number) => `${field(label)} doit comporter au plus ${n} chiffre${n > 1 ? 's' : ''} au total.`,
  wholeDigits: (label: string, n: number) => `${field(label)} doit comporter au plus ${n} chiffre${n > 1 ? 's' : ''} avant la virgule.`,
  mustBeChecked: (label: string) => `${field(label)} doit être coché.`,
  choice: (label: string) => `${field(label)} doit être l’une des valeurs proposées.`,
  linkTwice: (label: string) => `Ce choix de « ${label} » figure déjà sur une autre ligne.`,
  linkRows: (label: string) => `${field(label)} contient des valeurs à corriger (voir les lignes ci-dessous).`,
  ids: (label: string) => `${field(label)} doit contenir des identifiants entiers positifs.`,
  email: (label: string) => `${field(label)} doit être une adresse e-mail valide.`,
  phone: (label: string) => `${field(label)} doit être un numéro de téléphone français valide (par exemple 06 12 34 56 78 ou +33 6 12 34 56 78).`,
  url: (label: string) => `${field(label)} doit être une adresse web valide commençant par http:// ou https://.`,
  date: (label: string) => `${field(label)} doit être une date valide au format AAAA-MM-JJ.`,
  time: (label: string) => `${field(label)} doit être une heure valide au format HH:MM ou HH:MM:SS.`,
  dateTime: (label: string) => `${field(label)} doit être une date et une heure valides au format AAAA-MM-JJTHH:MM.`,
  slug: (label: string) => `${field(label)} ne peut contenir que des lettres minuscules sans accent, des chiffres et des tirets.`,
  slugHyphens: (label: string) => `${field(label)} ne peut ni commencer ni finir par un tiret, ni contenir deux tirets de suite.`,
  fileExtension: (label: string, filename: string, allowed: readonly string[]) =>
    `Le fichier « ${filename} » du champ « ${label} » n’a pas une extension autorisée (autorisées : ${allowed.join(', ')}).`,
  fileSize: (label: string, filename: string, max: number) =>
    `Le fichier « ${filename} » du champ « ${label} » dépasse la taille maximale autorisée (${formatSize(max)}).`,
  fileType: (label: string, filename: string, mime: string) =>
    `Le fichier « ${filename} » du champ « ${label} » n’est pas d’un type autorisé (${mime || 'type inconnu'}).`,
};

/** A byte count in French units: `5 Mo`, `1,5 Mo`, `200 Ko`, `512 octets` (1 Ko = 1024 octets). */
export function formatSize(bytes: number): string {
  const units: Array<[number, string]> = [
    [1024 ** 3, 'Go'],
    [1024 ** 2, 'Mo'],
    [1024, 'Ko'],
  ];
  for (const [size, unit] of units) {
    if (bytes >= size) return `${(Math.round((bytes / size) * 10) / 10).toString().replace('.', ',')} ${unit}`;
  }
  return `${bytes} octet${bytes > 1 ? 's' : ''}`;
}
