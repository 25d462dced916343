import type { FieldType } from 'n8n-workflow';

/**
 * n8n's mark on a `$fromAI` value its editor wrote for "Let the model define this
 * parameter" (FROM_AI_AUTO_GENERATED_MARKER in n8n-workflow): with it the editor
 * shows the field as the model's, with its description editable, as for its own
 * tool nodes.
 */
const FROM_AI_MARKER = '/*n8n-auto-generated-fromAI-override*/';

/** n8n accepts these `$fromAI` keys only (n8n-workflow from-ai-parse-utils, n8n-core create-node-as-tool). */
const KEY_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** The parameter name a model sees for an input: the input's name, or a close spelling n8n accepts. */
export function toolParameterKey(inputName: string): string {
	if (KEY_PATTERN.test(inputName)) return inputName;
	const key = inputName.replace(/[^a-zA-Z0-9_-]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 64);
	return key === '' ? 'input' : key;
}

/** `$fromAI` types: the four n8n turns into a tool parameter's JSON schema type. */
function fromAiType(type: FieldType | undefined): 'string' | 'number' | 'boolean' | 'json' {
	if (type === 'number' || type === 'boolean') return type;
	if (type === 'object' || type === 'array') return 'json';
	return 'string';
}

/** A string literal for an expression, in single quotes. */
function quoted(text: string): string {
	return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

export function toolParameterDescription(inputName: string, optional = false): string {
	return optional ? `The flow's state field "${inputName}" (optional: leave it out to keep the flow's default)` : `The crew's input "${inputName}"`;
}

/**
 * The default that makes a `$fromAI` parameter optional: n8n gives a parameter with a
 * default a zod `.default()`, which its tool schema (`z.object(...).required()`,
 * n8n-core create-node-as-tool.js) leaves optional. Empty, so nothing is sent when the
 * model leaves it out: '' for text, null for the rest (n8n parses the literal by the
 * type, and '' would read as the number 0).
 */
function optionalDefault(type: 'string' | 'number' | 'boolean' | 'json'): string {
	return type === 'string' ? "''" : 'null';
}

/**
 * The value a mapped input starts with when the Crew node is an agent's tool: the
 * model fills it. n8n builds a tool's parameters only from the `$fromAI` calls in
 * the node's saved parameters (n8n-core create-node-as-tool.js, getSchema), each
 * of them required; this puts one per input the crew lists, by name, with a
 * description the user can change. A field the user sets to a value of their own
 * is no longer offered to the model.
 */
export function fromAiDefault(inputName: string, type?: FieldType, optional = false): string {
	const key = toolParameterKey(inputName);
	const aiType = fromAiType(type);
	const fallback = optional ? `, ${optionalDefault(aiType)}` : '';
	return `={{ ${FROM_AI_MARKER} $fromAI(${quoted(key)}, ${quoted(toolParameterDescription(inputName, optional))}, ${quoted(aiType)}${fallback}) }}`;
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
 * description), and a field the user set to a value gets none, so the model is
 * not asked for it.
 */
export function toolFieldDefault(inputName: string, type: FieldType | undefined, currentValue: unknown, optional = false): string | undefined {
	if (currentValue === undefined || currentValue === null || currentValue === '') return fromAiDefault(inputName, type, optional);
	return isModelsValue(currentValue) ? currentValue : undefined;
}
