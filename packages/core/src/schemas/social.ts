// Schemas of the social service: filled in with the service's descriptor.
export {};
