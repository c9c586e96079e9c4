import type { ConnectorDefinition } from './contract.js';
import { engineAConnector } from './engine-a/index.js';
import { engineBConnector } from './engine-b/index.js';
import { ConnectorError } from './errors.js';
import { localConnector } from './local/index.js';
import { vectorDbConnector } from './vector-db/index.js';

/**
 * Every connector type, by its `type` value (SPEC 2.1: engine_a, engine_b, vector_db, plus local).
 * The CLI, the API and the UI read option schemas and factories from here; none has its own list.
 */
const CONNECTORS = new Map<string, ConnectorDefinition>(
  [localConnector, engineAConnector, engineBConnector, vectorDbConnector].map((connector) => [
    connector.type,
    connector,
  ]),
);

export function registerConnector(definition: ConnectorDefinition): void {
  if (CONNECTORS.has(definition.type)) throw new Error(`connector ${definition.type} is already registered`);
  CONNECTORS.set(definition.type, definition);
}

export function connectorDefinitions(): ConnectorDefinition[] {
  return [...CONNECTORS.values()];
}

export function getConnector(type: string): ConnectorDefinition {
  const definition = CONNECTORS.get(type);
  if (!definition) {
    throw new ConnectorError(
      type,
      'config',
      `unknown connector type "${type}"; known: ${[...CONNECTORS.keys()].join(', ')}`,
    );
  }
  return definition;
}

export function sourceTypes(): string[] {
  return connectorDefinitions()
    .filter((c) => c.createSource)
    .map((c) => c.type);
}

export function destinationTypes(): string[] {
  return connectorDefinitions()
    .filter((c) => c.createDestination)
    .map((c) => c.type);
}
