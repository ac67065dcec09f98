func.func @a() {
  // expected-error @below {{another message}}
  garbage
}
