//! ReadNodeStatus, ListenToNodeStatus, ReadNodeConfiguration, ReadProtocolParameters.

use crate::common::*;
use ledger_core::codec::{decode_milestone_payload, decode_protocol_parameters};
use ledger_inx::proto::{MilestoneId, MilestoneRequest, NoParams, NodeStatusRequest};
use tonic::Code;

#[test]
fn the_status_of_a_node_without_gossip() {
    let h = Harness::new();
    let mut client = h.client();
    h.store.issue_milestone(None).unwrap();
    let status = h.run(client.read_node_status(NoParams {})).unwrap().into_inner();
    // A network of one node: synced and healthy by itself.
    assert!(status.is_synced && status.is_almost_synced && status.is_healthy);
    assert_eq!(status.ledger_index, 2);
    assert_eq!(
        (status.tangle_pruning_index, status.milestones_pruning_index, status.ledger_pruning_index),
        (0, 0, 0)
    );
    let confirmed = status.confirmed_milestone.unwrap();
    let info = confirmed.milestone_info.unwrap();
    let record = h.store.milestone_by_index(2).unwrap().unwrap();
    assert_eq!(info.milestone_index, 2);
    assert_eq!(info.milestone_id.unwrap().id, record.milestone_id.to_vec());
    assert_eq!(info.milestone_timestamp, record.timestamp);
    // The raw milestone is the payload, type code first; it decodes.
    let raw = confirmed.milestone.unwrap().data;
    assert_eq!(raw, record.payload);
    assert_eq!(decode_milestone_payload(&raw).unwrap().index, 2);
    assert_eq!(status.latest_milestone.unwrap().milestone_info.unwrap().milestone_index, 2);
    // Protocol version 2 and the parameters in their binary layout.
    let params = status.current_protocol_parameters.unwrap();
    assert_eq!(params.protocol_version, 2);
    assert_eq!(decode_protocol_parameters(&params.params).unwrap(), *h.store.protocol());
}

#[test]
fn node_status_streams_a_status_per_milestone_and_stays_open() {
    let h = Harness::new();
    let mut client = h.client();
    h.run(async {
        let mut stream = client
            .listen_to_node_status(NodeStatusRequest { cooldown_in_milliseconds: 1000 })
            .await
            .unwrap()
            .into_inner();
        // Nothing at first.
        quiet(&mut stream, 200).await;
        for index in 2..=4 {
            h.store.issue_milestone(None).unwrap();
            let status = next(&mut stream).await.unwrap().unwrap();
            let confirmed = status.confirmed_milestone.unwrap();
            assert_eq!(confirmed.milestone_info.unwrap().milestone_index, index);
            // Whenever the index rises the raw milestone is there (extensions decode it).
            assert!(confirmed.milestone.is_some());
        }
        quiet(&mut stream, 200).await;
    });
}

#[test]
fn the_configuration_names_the_coordinator_key_and_the_base_token() {
    let h = Harness::new();
    let mut client = h.client();
    let config = h.run(client.read_node_configuration(NoParams {})).unwrap().into_inner();
    assert_eq!(config.milestone_public_key_count, 1);
    assert_eq!(config.milestone_key_ranges.len(), 1);
    let range = &config.milestone_key_ranges[0];
    assert_eq!(range.public_key, ledger_core::crypto::public_key(&coordinator_seed()).to_vec());
    assert_eq!((range.start_index, range.end_index), (0, 0));
    let token = config.base_token.unwrap();
    assert_eq!(
        (token.name.as_str(), token.ticker_symbol.as_str(), token.decimals),
        ("Ledger Dev Token", "TST", 6)
    );
    assert_eq!(config.supported_protocol_versions, vec![2]);
}

#[test]
fn protocol_parameters_by_index_and_by_id() {
    let h = Harness::new();
    let mut client = h.client();
    let by_index = h
        .run(
            client.read_protocol_parameters(MilestoneRequest {
                milestone_index: 0,
                milestone_id: None,
            }),
        )
        .unwrap()
        .into_inner();
    assert_eq!(by_index.protocol_version, 2);
    assert_eq!(decode_protocol_parameters(&by_index.params).unwrap(), *h.store.protocol());
    let id = h.store.milestone_by_index(1).unwrap().unwrap().milestone_id;
    let by_id = h
        .run(client.read_protocol_parameters(MilestoneRequest {
            milestone_index: 0,
            milestone_id: Some(MilestoneId { id: id.to_vec() }),
        }))
        .unwrap()
        .into_inner();
    assert_eq!(by_id, by_index);
    let unknown = h
        .run(client.read_protocol_parameters(MilestoneRequest {
            milestone_index: 0,
            milestone_id: Some(MilestoneId { id: vec![7; 32] }),
        }))
        .unwrap_err();
    assert_eq!(unknown.code(), Code::NotFound);
}
