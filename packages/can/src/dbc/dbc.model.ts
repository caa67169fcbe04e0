/**
 * The parsed content of a DBC file. Plain data (no classes) so that it can be
 * cached, sent to a worker or serialised as JSON; the decoder is compiled from it.
 */

export type ByteOrder = 'intel' | 'motorola';
export type SignalValueType = 'integer' | 'float32' | 'float64';
export type AttributeValue = number | string;
export type AttributeScope = 'network' | 'node' | 'message' | 'signal' | 'envvar' | 'relation';

/** Position in the DBC text, 1-based. */
export interface DbcPosition {
  line: number;
  col: number;
}

export interface DbcWarning extends DbcPosition {
  reason: string;
}

/** Raw value → label (VAL_ / VAL_TABLE_). Keys are raw (unscaled) integers. */
export type ValueTable = Map<number, string>;

export interface DbcSignal {
  name: string;
  /** Start bit as written in the DBC (LSB for Intel, MSB in the sawtooth numbering for Motorola). */
  startBit: number;
  /** 1..64 bits. */
  length: number;
  byteOrder: ByteOrder;
  signed: boolean;
  valueType: SignalValueType;
  factor: number;
  offset: number;
  min: number;
  max: number;
  unit: string;
  receivers: string[];
  /** True for a multiplexer switch (`M`, or `mNM` in extended multiplexing). */
  isMultiplexer: boolean;
  /**
   * When the signal is multiplexed: the switch signal's name and the switch values (inclusive ranges)
   * for which this signal is present. `m3` gives `[[3, 3]]`; SG_MUL_VAL_ can give several ranges.
   */
  multiplexer?: { switchName: string; ranges: [number, number][] };
  comment?: string;
  values?: ValueTable;
  attributes: Record<string, AttributeValue>;
  line: number;
}

export interface DbcMessage {
  /** Arbitration id (11 or 29 bits), without the DBC's bit-31 extended flag. */
  id: number;
  ext: boolean;
  /** The id as written in the file. */
  dbcId: number;
  name: string;
  /** Payload length in bytes (0..64; above 8 for CAN FD). */
  length: number;
  /** CAN FD frame (attribute VFrameFormat StandardCAN_FD / ExtendedCAN_FD). */
  fd: boolean;
  transmitter: string;
  /** Further transmitters from BO_TX_BU_. */
  transmitters: string[];
  signals: DbcSignal[];
  signalGroups: { name: string; repetitions: number; signals: string[] }[];
  comment?: string;
  attributes: Record<string, AttributeValue>;
  /** GenMsgCycleTime in ms when declared. */
  cycleTime?: number;
  /**
   * False for pseudo messages that no frame can carry (VECTOR__INDEPENDENT_SIG_MSG, ids beyond 29 bits).
   */
  decodable: boolean;
  line: number;
}

export interface DbcAttributeDefinition {
  name: string;
  scope: AttributeScope;
  type: 'INT' | 'HEX' | 'FLOAT' | 'STRING' | 'ENUM';
  min?: number;
  max?: number;
  enumValues?: string[];
  default?: AttributeValue;
}

export interface DbcEnvironmentVariable {
  name: string;
  type: number;
  min: number;
  max: number;
  unit: string;
  initial: number;
  id: number;
  access: string;
  nodes: string[];
  comment?: string;
  values?: ValueTable;
}

export interface DbcNode {
  name: string;
  comment?: string;
  attributes: Record<string, AttributeValue>;
}

export interface Dbc {
  version: string;
  nodes: DbcNode[];
  messages: DbcMessage[];
  valueTables: Map<string, ValueTable>;
  environmentVariables: DbcEnvironmentVariable[];
  attributeDefinitions: DbcAttributeDefinition[];
  /** Network (file-wide) attributes, defaults applied. */
  attributes: Record<string, AttributeValue>;
  comment?: string;
  /** From BA_ "ProtocolType": J1939 switches the decoder to PGN matching. */
  protocol: 'CAN' | 'J1939' | string;
}

export type DbcParseResult = { ok: true; dbc: Dbc; warnings: DbcWarning[] } | { ok: false; error: DbcWarning; warnings: DbcWarning[] };
