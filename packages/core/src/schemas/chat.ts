// Schemas of the chat service: filled in with the service's descriptor.
export {};
