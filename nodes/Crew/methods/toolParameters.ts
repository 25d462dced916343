import type { FieldType } from 'n8n-workflow';

/**
 * n8n's mark on a `$fromAI` value its editor wrote for "Let the model define this
 * parameter" (FROM_AI_AUTO_GENERATED_MARKER in n8n-workflow): with it the editor
 * shows the field as the model's, with its description editable, as for its own
 * tool nodes.
 */
const FROM_AI_MARKER = '/*n8n-auto-generated-fromAI-override*/';

/**
 * n8n accepts these `$fromAI` keys only (n8n-workflow from-ai-parse-utils, n8n-core
 * create-node-as-tool).
 */
const KEY_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * The parameter name a model sees for an input: the input's name, or a close spelling n8n accepts.
 */
export function toolParameterKey(inputName: string): string {
	if (KEY_PATTERN.test(inputName)) return inputName;
	const key = inputName
		.replace(/[^a-zA-Z0-9_-]+/g, '_')
		.replace(/^_+|_+$/g, '')
		.slice(0, 64);
	return key === '' ? 'input' : key;
}

/** `$fromAI` types: the four n8n turns into a tool parameter's JSON schema type. */
function fromAiType(type: FieldType | undefined): 'string' | 'number' | 'boolean' | 'json' {
	if (type === 'number' || type === 'boolean') return type;
	if (type === 'object' || type === 'array') return 'json';
	return 'string';
}

/**
 * A string literal for an expression, in single quotes: for keys and types, which hold no quote.
 */
function quoted(text: string): string {
	return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/**
 * A description's string literal, in backticks as n8n's editor writes the ones of its own "let
 * the model define" values (buildValueFromOverride). The editor reads a description back for the
 * panel by turning every backslash pair but one before a backtick into two backslashes
 * (parseOverrides), so a single-quoted "crew\'s" reaches the panel as "crew\s"; in backticks an
 * apostrophe or a double quote needs no escape. A backtick is escaped (the editor keeps that
 * one) and a backslash doubled. A "${" (in an input's name, at most) would start a template's
 * placeholder, and no escape of it survives the editor's reading: it is written "$ {".
 */
function quotedDescription(text: string): string {
	return `\`${text.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '$ {')}\``;
}

/** How a flow field's value is written, for a model that gets every flow field as text. */
const FLOW_VALUE_HINTS: Partial<Record<FieldType, string>> = {
	number: 'a number',
	boolean: 'true or false',
	array: 'a JSON list such as ["a", "b"]',
	object: 'a JSON object such as {"key": "value"}',
};

export function toolParameterDescription(
	inputName: string,
	optional = false,
	type?: FieldType,
): string {
	if (!optional) return `The crew's input "${inputName}"`;
	const hint = type ? FLOW_VALUE_HINTS[type] : undefined;
	return `The flow's state field "${inputName}"${hint ? `, ${hint}` : ''} (optional: leave it out to keep the flow's default)`;
}

/**
 * The default that makes a `$fromAI` parameter optional: n8n gives a parameter with a
 * default a zod `.default()`, which its tool schema (`z.object(...).required()`,
 * n8n-core create-node-as-tool.js) leaves optional. zod checks the default against the
 * type when the model leaves the parameter out, and only text has an empty value that
 * passes (n8n's number, boolean and json types refuse null, its json type an empty
 * list), so a flow's fields are offered as text with '' as the default: nothing is sent
 * for a field left out, and the field's own type reads the model's text (a number's
 * digits, a list's JSON) before the kickoff.
 */
const OPTIONAL_DEFAULT = "''";

/**
 * The value a mapped input starts with when the Crew node is an agent's tool: the
 * model fills it. n8n builds a tool's parameters only from the `$fromAI` calls in
 * the node's saved parameters (n8n-core create-node-as-tool.js, getSchema), each
 * of them required; this puts one per input the crew lists, by name, with a
 * description the user can change. A field the user sets to a value of their own
 * is no longer offered to the model.
 */
export function fromAiDefault(inputName: string, type?: FieldType, optional = false): string {
	return fromAiExpression(inputName, type, optional, quotedDescription);
}

function fromAiExpression(
	inputName: string,
	type: FieldType | undefined,
	optional: boolean,
	quote: (text: string) => string,
): string {
	const key = quoted(toolParameterKey(inputName));
	if (optional) {
		const description = quote(toolParameterDescription(inputName, true, type));
		return `={{ ${FROM_AI_MARKER} $fromAI(${key}, ${description}, 'string', ${OPTIONAL_DEFAULT}) }}`;
	}
	const description = quote(toolParameterDescription(inputName));
	return `={{ ${FROM_AI_MARKER} $fromAI(${key}, ${description}, ${quoted(fromAiType(type))}) }}`;
}

/**
 * True for the starting value this package wrote before its descriptions were in backticks:
 * unchanged by the user, so safe to write anew.
 */
function isSingleQuotedDefault(
	value: string,
	inputName: string,
	type: FieldType | undefined,
	optional: boolean,
): boolean {
	return value === fromAiExpression(inputName, type, optional, quoted);
}

function isModelsValue(value: unknown): value is string {
	return typeof value === 'string' && /\$fromAI\s*\(/i.test(value);
}

/**
 * The starting value to give a field the editor loads for a Crew tool, from the
 * value it has now. n8n's editor saves the loaded fields with the node, starting
 * values included (the resource mapper's `schema`), and n8n-core collects every
 * `$fromAI` in the saved parameters, that copy too. So the copy must agree with
 * the values once the fields are loaded again: a new or empty field gets the
 * model's placeholder, a field the model fills keeps its own (with the user's
 * description; the single-quoted one this package wrote before is written anew), and
 * a field the user set to a value gets none, so the model is not asked for it.
 */
export function toolFieldDefault(
	inputName: string,
	type: FieldType | undefined,
	currentValue: unknown,
	optional = false,
): string | undefined {
	if (currentValue === undefined || currentValue === null || currentValue === '')
		return fromAiDefault(inputName, type, optional);
	if (!isModelsValue(currentValue)) return undefined;
	// The old starting value shows "crew\s" in the panel; one the user edited is theirs to keep.
	return isSingleQuotedDefault(currentValue, inputName, type, optional)
		? fromAiDefault(inputName, type, optional)
		: currentValue;
}
