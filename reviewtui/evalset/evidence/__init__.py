"""Evidence: the source documents, finding each quote in its document, and what each lookup found."""
