//! The Perfetto and Parquet writers on hostile names.
#![no_main]

use accelprof_export::parquet::{ParquetOptions, ParquetWriter};
use accelprof_export::perfetto::{PerfettoOptions, PerfettoWriter};
use accelprof_export::RunMeta;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (batch, names) = accelprof_fuzz::hostile_batch(data);
    let names = names.names();
    let meta = RunMeta { host: String::from_utf8_lossy(data).into_owned(), ..RunMeta::default() };
    let mut perfetto = PerfettoWriter::to_writer(std::io::sink(), &meta, PerfettoOptions::default()).unwrap();
    perfetto.write_batch(&batch, &names).unwrap();
    perfetto.finish().unwrap();
    let path = std::env::temp_dir().join(format!("accelprof-fuzz-{}.parquet", std::process::id()));
    let mut parquet = ParquetWriter::create(&path, &meta, ParquetOptions::default()).unwrap();
    parquet.write_batch(&batch, &names).unwrap();
    parquet.finish().unwrap();
    let back = accelprof_export::parquet::read_parquet(&path).unwrap();
    drop(back);
    let _ = std::fs::remove_file(&path);
});
