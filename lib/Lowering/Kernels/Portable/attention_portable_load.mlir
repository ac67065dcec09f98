//#vars TILE TILE_ROWS TILE_COLS ROW0 SRC SCALE ROW_LIMIT TILE_SIZE SRC_INDEX SRC_TYPE E TILE_TYPE
//#flags E_F32
      // %{{TILE}} ({{TILE_ROWS}} x {{TILE_COLS}}) = rows %{{ROW0}} ... of %{{SRC}}, in f32,
      // times %{{SCALE}}; rows r >= %{{ROW_LIMIT}} are 0. Each thread takes
      // every %nth-th element. (attention_portable_load.mlir: AttentionPortable.c
      // specialises it for each tile of attention_portable.mlir.)
      %{{TILE}}_n = arith.constant {{TILE_SIZE}} : index
      %{{TILE}}_w = arith.constant {{TILE_COLS}} : index
      scf.for %e = %tid to %{{TILE}}_n step %nth {
        %r = arith.divui %e, %{{TILE}}_w : index
        %c = arith.remui %e, %{{TILE}}_w : index
        %in = arith.cmpi ult, %r, %{{ROW_LIMIT}} : index
        %val = scf.if %in -> f32 {
          %row = arith.addi %{{ROW0}}, %r : index
          %x = memref.load %{{SRC}}[{{SRC_INDEX}}] : {{SRC_TYPE}}
//#if E_F32
          %xf = arith.addf %x, %zf : f32
//#else
          %xf = arith.extf %x : {{E}} to f32
//#endif
          %xs = arith.mulf %xf, %{{SCALE}} : f32
          scf.yield %xs : f32
        } else {
          scf.yield %zf : f32
        }
        memref.store %val, %{{TILE}}[%r, %c] : {{TILE_TYPE}}
      }
