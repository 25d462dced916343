/**
 * The node tests' helpers now run the Crew node on n8n's real engine
 * (crewWorkflow.ts, n8nEngine.ts); the hand-made IExecuteFunctions that was
 * here is gone. This module path stays so tests written against it keep
 * working: runCrewNode, runCrewNodeExpectingError and items behave as before.
 */
export * from './crewWorkflow';
