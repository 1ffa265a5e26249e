type DataValue = string | number | boolean | undefined;

/**
 * `data-*` props from an object, for the attributes tests and styles read:
 * `{ id: "c1", level: 2 }` → `{ "data-id": "c1", "data-level": 2 }`; undefined values are left out.
 */
export function dataAttributes(values: Record<string, DataValue>): Record<`data-${string}`, Exclude<DataValue, undefined>> {
  const props: Record<`data-${string}`, Exclude<DataValue, undefined>> = {};
  for (const [key, value] of Object.entries(values)) if (value !== undefined) props[`data-${key}`] = value;
  return props;
}
