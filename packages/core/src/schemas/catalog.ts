// Schemas of the catalog service: filled in with the service's descriptor.
export {};
