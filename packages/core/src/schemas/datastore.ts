// Schemas of the datastore service: filled in with the service's descriptor.
export {};
