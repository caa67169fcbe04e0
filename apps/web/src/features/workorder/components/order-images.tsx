import type { WorkOrderImage } from '@loggerhead/contract/schemas/workorder.ts';
import { useQuery } from '@tanstack/react-query';
import { Image, Skeleton, Space } from 'antd';
import { useEffect } from 'react';
import { type Side, workOrderApi } from '../api/workorder.api.ts';

function OrderImage({ side, tenantId, image }: { side: Side; tenantId: string; image: WorkOrderImage }) {
  const src = useQuery({
    queryKey: ['workorder', 'image', side, image.id],
    queryFn: ({ signal }) => workOrderApi.imageUrl(side, tenantId, image.id, signal),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    meta: { silent: true },
  });
  // Object URLs live until revoked; the query forgets them when the detail closes.
  useEffect(() => () => void (src.data && URL.revokeObjectURL(src.data)), [src.data]);
  if (!src.data) return <Skeleton.Image active={src.isFetching} style={{ width: 96, height: 96 }} />;
  return <Image src={src.data} alt={image.name} width={96} height={96} style={{ objectFit: 'cover', borderRadius: 6 }} />;
}

/** The attached screenshots, loaded with the session token, enlarged on click. */
export function OrderImages({ side, tenantId, images }: { side: Side; tenantId: string; images: WorkOrderImage[] }) {
  if (images.length === 0) return <>--</>;
  return (
    <Image.PreviewGroup>
      <Space wrap>
        {images.map((img) => (
          <OrderImage key={img.id} side={side} tenantId={tenantId} image={img} />
        ))}
      </Space>
    </Image.PreviewGroup>
  );
}
