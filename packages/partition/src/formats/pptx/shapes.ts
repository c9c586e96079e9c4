import type { TableCell } from '../../elements/table-html.js';
import type { Relationship } from '../ooxml/package.js';
import { child, children, path, type XmlElement } from '../ooxml/xml.js';
import { type DrawingParagraph, readDrawingTable, readTextBody } from './text.js';

/**
 * The content of a slide's shape tree in reading order: every shape, however deeply grouped, is placed
 * on the slide (group transforms applied) and all are sorted top-to-bottom, then left-to-right.
 */

export type SlideItem =
  | { kind: 'text'; placeholderType: string | undefined; paragraphs: DrawingParagraph[] }
  | { kind: 'table'; rows: TableCell[][]; headerRows: number }
  | { kind: 'picture'; relationshipId: string; description: string };

interface Point {
  x: number;
  y: number;
}

/** Where placeholders sit when a slide shape does not say (it inherits from its layout, then master). */
export class PlaceholderPositions {
  private readonly positions = new Map<string, Point>();

  /** Add a layout's or master's placeholders; earlier additions win (layout before master). */
  add(spTree: XmlElement | undefined): void {
    for (const shape of children(spTree, 'p:sp')) {
      const placeholder = placeholderOf(shape);
      const point = ownPosition(shape);
      if (!placeholder || !point) continue;
      for (const key of placeholderKeys(placeholder))
        if (!this.positions.has(key)) this.positions.set(key, point);
    }
  }

  lookup(placeholder: XmlElement): Point | undefined {
    for (const key of placeholderKeys(placeholder)) {
      const point = this.positions.get(key);
      if (point) return point;
    }
    return undefined;
  }
}

function placeholderKeys(placeholder: XmlElement): string[] {
  const keys: string[] = [];
  if (placeholder.attrs.idx !== undefined) keys.push(`idx:${placeholder.attrs.idx}`);
  keys.push(`type:${placeholder.attrs.type ?? 'obj'}`);
  return keys;
}

function placeholderOf(shape: XmlElement): XmlElement | undefined {
  const nonVisual =
    child(shape, 'p:nvSpPr') ?? child(shape, 'p:nvPicPr') ?? child(shape, 'p:nvGraphicFramePr');
  return path(nonVisual, 'p:nvPr', 'p:ph');
}

function ownPosition(shape: XmlElement): Point | undefined {
  const properties = child(shape, 'p:spPr') ?? child(shape, 'p:grpSpPr');
  const offset = path(properties, 'a:xfrm', 'a:off') ?? path(shape, 'p:xfrm', 'a:off');
  if (!offset) return undefined;
  return { x: Number(offset.attrs.x ?? 0) || 0, y: Number(offset.attrs.y ?? 0) || 0 };
}

export function readShapeTree(
  spTree: XmlElement | undefined,
  relationships: ReadonlyMap<string, Relationship>,
  placeholders: PlaceholderPositions,
): SlideItem[] {
  const placed: { item: SlideItem; at: Point; index: number }[] = [];
  const place = (item: SlideItem, at: Point) => placed.push({ item, at, index: placed.length });
  const visit = (container: XmlElement | undefined, toSlide: Transform) => {
    for (const wrapped of children(container)) {
      const shape = unwrapAlternateContent(wrapped);
      if (!shape) continue;
      const at = toSlide(positionOf(shape, placeholders));
      switch (shape.name) {
        case 'p:sp': {
          const paragraphs = readTextBody(child(shape, 'p:txBody'), relationships);
          if (paragraphs.some((paragraph) => paragraph.text.trim() !== '')) {
            place({ kind: 'text', placeholderType: placeholderTypeOf(shape), paragraphs }, at);
          }
          break;
        }
        case 'p:grpSp':
          visit(shape, composeGroupTransform(shape, toSlide));
          break;
        case 'p:graphicFrame': {
          const table = path(shape, 'a:graphic', 'a:graphicData', 'a:tbl');
          if (table) place({ kind: 'table', ...readDrawingTable(table, relationships) }, at);
          break;
        }
        case 'p:pic': {
          const relationshipId = path(shape, 'p:blipFill', 'a:blip')?.attrs['r:embed'];
          const properties = path(shape, 'p:nvPicPr', 'p:cNvPr');
          const description = (properties?.attrs.descr ?? '').trim();
          if (relationshipId) place({ kind: 'picture', relationshipId, description }, at);
          break;
        }
        default:
          break;
      }
    }
  };
  visit(spTree, (point) => point);
  // Shapes at the same spot keep their z-order (the sort is stable on index).
  placed.sort((a, b) => a.at.y - b.at.y || a.at.x - b.at.x || a.index - b.index);
  return placed.map((entry) => entry.item);
}

type Transform = (point: Point) => Point;

/**
 * Members of a group are positioned in the group's child space (a:chOff/a:chExt), which the group maps
 * onto its own frame (a:off/a:ext) in its parent's space.
 */
function composeGroupTransform(group: XmlElement, toParent: Transform): Transform {
  const xfrm = path(group, 'p:grpSpPr', 'a:xfrm');
  const number = (element: XmlElement | undefined, name: string) => Number(element?.attrs[name] ?? 0) || 0;
  const offset = child(xfrm, 'a:off');
  const extent = child(xfrm, 'a:ext');
  const childOffset = child(xfrm, 'a:chOff');
  const childExtent = child(xfrm, 'a:chExt');
  const scaleX = number(childExtent, 'cx') ? number(extent, 'cx') / number(childExtent, 'cx') : 1;
  const scaleY = number(childExtent, 'cy') ? number(extent, 'cy') / number(childExtent, 'cy') : 1;
  return (point) =>
    toParent({
      x: number(offset, 'x') + (point.x - number(childOffset, 'x')) * scaleX,
      y: number(offset, 'y') + (point.y - number(childOffset, 'y')) * scaleY,
    });
}

/** A placeholder without a type attribute is a content ("obj") placeholder. */
function placeholderTypeOf(shape: XmlElement): string | undefined {
  const placeholder = placeholderOf(shape);
  return placeholder ? (placeholder.attrs.type ?? 'obj') : undefined;
}

function positionOf(shape: XmlElement, placeholders: PlaceholderPositions): Point {
  const own = ownPosition(shape);
  if (own) return own;
  const placeholder = placeholderOf(shape);
  return (placeholder && placeholders.lookup(placeholder)) || { x: 0, y: 0 };
}

/** Newer shape kinds come with a fallback; the first choice is what PowerPoint shows. */
function unwrapAlternateContent(shape: XmlElement): XmlElement | undefined {
  if (shape.name !== 'mc:AlternateContent') return shape;
  const chosen = child(shape, 'mc:Choice') ?? child(shape, 'mc:Fallback');
  return children(chosen)[0];
}
