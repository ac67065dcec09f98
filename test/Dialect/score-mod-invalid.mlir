// Invalid mask / score_mod functions, sinks and captures: located errors.
// RUN: fa-opt %s --split-input-file --verify-diagnostics

func.func @missing(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) {
  // expected-error @+1 {{'fa.gridwise_attention' op 'mask' names no func.func in the enclosing symbol table}}
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.0 : f32, mask = @nope} : (tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>
  return
}

// -----

func.func private @m(%b: index, %h: index, %i: index) -> i1
func.func @arity(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) {
  // expected-error @+1 {{'fa.gridwise_attention' op 'mask' function must have a body}}
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.0 : f32, mask = @m} : (tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>
  return
}

// -----

func.func private @m(%b: index, %h: index, %i: index) -> i1 {
  %t = arith.constant true
  return %t : i1
}
func.func @arity(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) {
  // expected-error @+1 {{'fa.gridwise_attention' op 'mask' function takes 4 index arguments (b, h, i, j) and the op's 0 captures and returns one i1}}
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.0 : f32, mask = @m} : (tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>
  return
}

// -----

func.func private @s(%s: f16, %b: index, %h: index, %i: index, %j: index) -> f32 {
  %r = arith.extf %s : f16 to f32
  return %r : f32
}
func.func @score_type(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) {
  // expected-error @+1 {{'fa.gridwise_attention' op 'score_mod' function argument 0 has the wrong type (f32)}}
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.0 : f32, score_mod = @s} : (tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>
  return
}

// -----

func.func private @s(%s: f32, %b: index, %h: index, %i: index, %j: index, %t: tensor<4xf32>) -> f32 {
  %c = arith.constant 0 : index
  %true = arith.constant true
  // expected-error @+1 {{'fa.gridwise_attention' op 'score_mod' function may hold only arith, math and index ops and tensor.extract of captures, not 'scf.if'}}
  %r = scf.if %true -> f32 {
    scf.yield %s : f32
  } else {
    scf.yield %s : f32
  }
  return %r : f32
}
func.func @region_op(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>, %t: tensor<4xf32>) {
  %o = "fa.gridwise_attention"(%q, %k, %v, %t) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 1.0 : f32, score_mod = @s} : (tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<4xf32>) -> tensor<1x2x8x16xf32>
  return
}

// -----

func.func private @s(%s: f32, %b: index, %h: index, %i: index, %j: index, %t: tensor<4xf32>) -> f32 {
  %c = arith.constant 4 : index
  // expected-error @+1 {{'fa.gridwise_attention' op 'score_mod' function reads index 4 of dimension 0 of a capture of size 4}}
  %x = tensor.extract %t[%c] : tensor<4xf32>
  %r = arith.addf %s, %x : f32
  return %r : f32
}
func.func @out_of_bounds(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>, %t: tensor<4xf32>) {
  %o = "fa.gridwise_attention"(%q, %k, %v, %t) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 1.0 : f32, score_mod = @s} : (tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<4xf32>) -> tensor<1x2x8x16xf32>
  return
}

// -----

func.func @no_function(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>, %t: tensor<4xf32>) {
  // expected-error @+1 {{'fa.gridwise_attention' op has captures but no 'mask' or 'score_mod' function to take them}}
  %o = "fa.gridwise_attention"(%q, %k, %v, %t) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 1.0 : f32} : (tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<4xf32>) -> tensor<1x2x8x16xf32>
  return
}

// -----

func.func private @m(%b: index, %h: index, %i: index, %j: index, %t: tensor<4xf32>) -> i1 {
  %true = arith.constant true
  return %true : i1
}
func.func @gap(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>, %t: tensor<4xf32>) {
  // expected-error @+1 {{'fa.gridwise_attention' op captures must fill the segments from capture0 up (capture0 is empty)}}
  %o = "fa.gridwise_attention"(%q, %k, %v, %t) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 1, 0, 0>, scale = 1.0 : f32, mask = @m} : (tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<4xf32>) -> tensor<1x2x8x16xf32>
  return
}

// -----

func.func @sinks_heads(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>, %s: tensor<3xf32>) {
  // expected-error @+1 {{'fa.gridwise_attention' op sinks dimension 0 (query heads) is 3, expected 2}}
  %o = "fa.gridwise_attention"(%q, %k, %v, %s) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1, 0, 0, 0, 0>, scale = 1.0 : f32} : (tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<3xf32>) -> tensor<1x2x8x16xf32>
  return
}

// -----

func.func @symbol_kind(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) {
  // expected-error @+1 {{'fa.gridwise_attention' op attribute 'mask' must be a flat symbol reference (@name)}}
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.0 : f32, mask = "m"} : (tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>
  return
}
