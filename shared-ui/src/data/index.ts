// The staff side's records: tables, cards, badges and the actions menu. Like shared-ui/forms, carried by the bundle
// that uses it, on top of the shared 'shared-ui' core.
export { Table, THead, TBody, Tr, Th, Td, type TableProps } from './Table';
export { Card, CardHeader, CardTitle, CardBody } from './Card';
export { Badge, type BadgeProps, type BadgeTone } from './Badge';
export { Menu, MenuTrigger, MenuContent, MenuItem, MenuSeparator, type MenuContentProps } from './Menu';
export {
  DataTable,
  SecondLine,
  type DataColumn,
  type DataSort,
  type DataTableProps,
  type CellWrap,
} from './DataTable';
export { WideView, NarrowView, RecordCard, RecordCardList, type RecordField } from './RecordCards';
