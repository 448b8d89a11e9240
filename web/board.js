// Placeholder until the page lands.
