/**
 * The webhook lifecycle n8n asks a webhook node for (checkExists, then create
 * when it answers false; delete when the workflow stops listening), for a
 * service that keeps no registrations n8n could make. Each node says why that
 * holds for it where it uses this.
 */
export const nothingToRegister = {
	default: {
		async checkExists(): Promise<boolean> {
			return true;
		},
		async create(): Promise<boolean> {
			return true;
		},
		async delete(): Promise<boolean> {
			return true;
		},
	},
};
